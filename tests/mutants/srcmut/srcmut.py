#!/usr/bin/env python3
"""srcmut: mutants of the reference, from its C syntax tree (libclang).

Every mutation point of reference/*/*.c is found by walking the syntax
tree libclang gives (Debian's python3-clang), not by matching text, and
is written back into a copy of the sources as a schema: the original and
each of its mutants side by side, chosen at run time by the number in
RDMACONF_SRCMUT (tests/mutants/srcmut/srcmut_rt.h).  The operators:

  relational     < <= > >= each by the other three and by == and !=
                 (pointers: the other orderings); == and != by each other
  arithmetic     + and -, * and /, % by /, ++ and --, and the compound
                 assignments of each
  bitwise        & and |, ^ by | and &, and their compound assignments
  shift          << and >>, <<= and >>=
  constant       an integer or character constant, an enumerator, or a
                 macro that is one constant: +1, -1 and 0 (where the
                 value is a truth value, only the other truth value)
  byteorder      htobe16/32/64, be16/32/64toh, htons/ntohs, htonl/ntohl:
                 dropped (the argument as it is) or another width of the
                 same direction.  The other direction at the same width
                 is the same function on every host (a byte swap or
                 nothing), so it is no mutant; nor are the little-endian
                 ones, which are nothing on the hosts this runs on.
  assign-delete  an assignment (or compound assignment) to a struct
                 field, through an out-parameter, to errno or to a
                 static variable, deleted; what it assigns is still
                 evaluated
  negate         the condition of an if, while, do, for or ?: negated
  return         a return value replaced by 0, -1 and 1 (integers; -1 is
                 the type's largest for unsigned ones), the other truth
                 value (bool), NULL (pointers) and "" (strings)

A point's stable id is FILE:FUNCTION:OPERATOR:HASH.N:VARIANT: HASH is a
short hash of the point's own tokens and of the full expression around
it, and N its ordinal among the points of that function with the same
operator and hash, so an edit elsewhere, even in the same function,
leaves the id alone.

What no run-time switch can hold: a case label's constant (a separate
build of the object, the "alt" points), a constant in a static table's
initializer (patched by a constructor before main, with the table no
longer const, the "table" points), and array sizes, _Static_assert and
type definitions (listed with that reason; no mutant).

`srcmut.py generate OUT` writes the schematized tree and OUT/manifest.json;
`srcmut.py scan [FILE...]` is the cross-check: every operator token a
plain token scan of the file finds must be a point or have a reason the
walk gave, and it prints what is neither (exit 1).
"""
import argparse
import ctypes
import hashlib
import json
import os
import re
import sys

import clang.cindex as ci

K = ci.CursorKind
T = ci.TypeKind
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))

OPERATORS = ("relational", "arithmetic", "bitwise", "shift", "constant",
             "byteorder", "assign-delete", "negate", "return")

ORDERING = ("<", "<=", ">", ">=")
EQUALITY = ("==", "!=")
SWAPS = {"+": ("-",), "-": ("+",), "*": ("/",), "/": ("*",), "%": ("/",),
         "&": ("|",), "|": ("&",), "^": ("|", "&"),
         "<<": (">>",), ">>": ("<<",)}
BINARY_KIND = {"+": "arithmetic", "-": "arithmetic", "*": "arithmetic",
               "/": "arithmetic", "%": "arithmetic", "&": "bitwise",
               "|": "bitwise", "^": "bitwise", "<<": "shift", ">>": "shift"}
for _op in ORDERING + EQUALITY:
    BINARY_KIND[_op] = "relational"
# one direction of one family, by width: a swap stays in its list
BYTEORDER_FAMILIES = (
    ("htobe16", "htobe32", "htobe64"), ("be16toh", "be32toh", "be64toh"),
    ("htons", "htonl"), ("ntohs", "ntohl"))
BYTEORDER = {n: f for f in BYTEORDER_FAMILIES for n in f}
NEGATE_TOKENS = ("if", "while", "for", "?")
WRAPPERS = (K.UNEXPOSED_EXPR, K.PAREN_EXPR)
TYPE_DEFS = (K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL, K.TYPEDEF_DECL,
             K.FIELD_DECL)
SIGNED = (T.CHAR_S, T.SCHAR, T.SHORT, T.INT, T.LONG, T.LONGLONG, T.ENUM)
UNSIGNED = (T.CHAR_U, T.UCHAR, T.USHORT, T.UINT, T.ULONG, T.ULONGLONG)
# nesting of points over the same tokens: the lower one is outside
PRIORITY = {"probe": 0, "return": 1, "assign-delete": 2, "negate": 3,
            "relational": 4, "arithmetic": 4, "bitwise": 4, "shift": 4,
            "byteorder": 5, "constant": 6}


def token_kinds(spelling, literal):
    """The operators a token can be a point of, as a plain scan sees it."""
    if literal:
        return ("constant",) if spelling[0].isdigit() or \
            spelling[0] == "'" or spelling[:2] in ("L'", "u'", "U'") else ()
    if spelling in BINARY_KIND:
        return (BINARY_KIND[spelling],)
    if spelling in ("++", "--"):
        return ("arithmetic",)
    if spelling.endswith("=") and spelling[:-1] in SWAPS:
        return (BINARY_KIND[spelling[:-1]], "assign-delete")
    if spelling == "=":
        return ("assign-delete",)
    if spelling in BYTEORDER:
        return ("byteorder",)
    if spelling == "return":
        return ("return",)
    if spelling in NEGATE_TOKENS:
        return ("negate",)
    return ()


# --- the plain token scan (the cross-check's side: no libclang) ---------

SCAN_RE = re.compile(r"""
    (?P<ws>(?:\s|\\\n)+)
  | (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<string>(?:L|u8|u|U)?"(?:\\.|[^"\\\n])*")
  | (?P<char>(?:L|u|U)?'(?:\\.|[^'\\\n])+')
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.])*)
  | (?P<ident>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<punct><<=|>>=|\.\.\.|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||
       [-+*/%&|^]=|\#\#|[][(){}.,;:?~!<>=+*/%&|^#-])
""", re.S | re.X)


def scan_tokens(text):
    """(offset, spelling, kinds) of every token that could be a point,
    outside comments, strings and preprocessor lines."""
    out = []
    pos = 0
    line_start = True
    in_directive = False
    while pos < len(text):
        m = SCAN_RE.match(text, pos)
        if not m:
            raise ValueError("scan: cannot read %r at %d" %
                             (text[pos:pos + 20], pos))
        kind = m.lastgroup
        tok = m.group()
        if kind == "ws" or kind == "comment":
            if "\n" in tok:
                # a directive ends at a newline not escaped by a backslash
                nl = m.start() + tok.index("\n")
                if in_directive and text[nl - 1] != "\\":
                    in_directive = False
                line_start = not in_directive
            pos = m.end()
            continue
        if line_start and tok == "#":
            in_directive = True
        line_start = False
        if not in_directive and kind != "string":
            kinds = token_kinds(tok, kind in ("number", "char"))
            if kinds:
                out.append((m.start(), tok, kinds))
        pos = m.end()
    return out


# --- libclang ----------------------------------------------------------

_lib = ci.conf.lib
_lib.clang_getFileLocation.argtypes = [
    ci.SourceLocation, ctypes.POINTER(ci.c_object_p),
    ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint),
    ctypes.POINTER(ctypes.c_uint)]
_lib.clang_getFileLocation.restype = None
_lib.clang_Cursor_Evaluate.argtypes = [ci.Cursor]
_lib.clang_Cursor_Evaluate.restype = ctypes.c_void_p
_lib.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
_lib.clang_EvalResult_getKind.restype = ctypes.c_int
_lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
_lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
_lib.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]
_lib.clang_EvalResult_dispose.restype = None


def file_location(loc):
    """(file name, offset) of a location: a macro argument's spelling, a
    macro body's expansion (clang_getFileLocation)."""
    f = ci.c_object_p()
    line, col, off = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    _lib.clang_getFileLocation(loc, ctypes.byref(f), ctypes.byref(line),
                               ctypes.byref(col), ctypes.byref(off))
    return (ci.File(f).name if f else None), off.value


def evaluate(c):
    """The integer value of a constant expression, or None."""
    r = _lib.clang_Cursor_Evaluate(c)
    if not r:
        return None
    v = _lib.clang_EvalResult_getAsLongLong(r) \
        if _lib.clang_EvalResult_getKind(r) == 1 else None
    _lib.clang_EvalResult_dispose(r)
    return v


def strip(c):
    while c.kind in WRAPPERS + (K.CSTYLE_CAST_EXPR,):
        kids = [k for k in c.get_children() if k.kind.is_expression()]
        if not kids:
            break
        c = kids[-1]
    return c


class Point:
    """One place of the source and its mutants.

    parts templates are lists of strings and names of sub-ranges
    (self.sub: name -> (first token, last token))."""

    def __init__(self, unit, op, a, b, func, full, how="select"):
        self.unit, self.op, self.a, self.b = unit, op, a, b
        self.func, self.full, self.how = func, full, how
        self.sub = {}
        self.variants = []	# (name, parts)
        self.probe = None	# an alt point's switch
        self.table = None
        self.kids = []
        self.slot = None
        self.ids = []		# mutant numbers, one per variant
        self.build = "schema"	# or "alt", "table"
        self.type = None	# the C type a variant is cast to
        self.path = None	# a table point's lvalue

    def key(self):
        return (self.a, -self.b, PRIORITY[self.op])


class Unit:
    """One reference source file: its tokens, syntax tree, points, and
    what the walk says about every other token."""

    def __init__(self, path, rel, args):
        self.path, self.rel = path, rel
        index = ci.Index.create()
        self.tu = index.parse(path, args=args)
        errors = [d for d in self.tu.diagnostics if d.severity >= 3]
        if errors:
            raise SystemExit("srcmut: %s: %s" % (rel, errors[0]))
        with open(path, "rb") as f:
            self.raw = f.read()
        self.toks = []
        for t in self.tu.get_tokens(extent=self.tu.cursor.extent):
            if t.location.file is None or t.location.file.name != path:
                continue
            s = t.extent.start.offset
            e = t.extent.end.offset
            self.toks.append((s, e, t.spelling, t.kind))
        self.starts = {t[0]: i for i, t in enumerate(self.toks)}
        self.ends = {t[1]: i for i, t in enumerate(self.toks)}
        self.points = []
        self.probes = []
        self.entries = {}	# token index -> slot: a function's first line
        self.records = {}	# (token index, operator) -> reason or Point
        self.expr_toks = set()
        self.funcs = {}		# key -> {"name", "line", "static"}
        self.edges = {}		# key -> set of keys it refers to
        self.tables = set()	# static tables a point patches: const token
        self.unbuilt = []
        self.single = {}	# identifier token -> nodes spelled there

    # -- tokens --

    def spell(self, i):
        return self.toks[i][2]

    def line_of(self, i):
        return self.raw.count(b"\n", 0, self.toks[i][0]) + 1

    def trange(self, c):
        """The cursor's first and last token in this file, or None."""
        fs, s = file_location(c.extent.start)
        fe, e = file_location(c.extent.end)
        if fs != self.path or fe != self.path:
            return None
        a, b = self.starts.get(s), self.ends.get(e)
        if (b is None or e == s) and e in self.starts:
            # the end of a macro's body inside another macro's argument
            # is where that expansion begins: the macro's name
            b = self.starts[e]
            if self.toks[b][3] == ci.TokenKind.IDENTIFIER and \
                    b + 1 < len(self.toks) and self.spell(b + 1) == "(":
                b = self.match(b + 1, "(", ")")
        if a is None or b is None or a > b:
            return None
        return a, b

    def flat(self, a, b):
        return " ".join(self.toks[i][2] for i in range(a, b + 1)
                        if self.toks[i][3] != ci.TokenKind.COMMENT)

    def match(self, i, open_, close):
        depth = 0
        for j in range(i, len(self.toks)):
            s = self.spell(j)
            if s == open_:
                depth += 1
            elif s == close:
                depth -= 1
                if depth == 0:
                    return j
        return None

    def key_of(self, decl):
        if decl.linkage == ci.LinkageKind.INTERNAL:
            return "%s:%s" % (self.rel, decl.spelling)
        return decl.spelling


class Walker:
    """The walk of one unit's syntax tree."""

    def __init__(self, unit):
        self.u = unit

    # -- records --

    def record(self, tok, op, what):
        """what: a Point, or the reason the token is no point."""
        self.u.records.setdefault((tok, op), what)

    def skip_range(self, a, b, reason):
        for i in range(a, b + 1):
            s, _, sp, kind = self.u.toks[i]
            for op in token_kinds(sp, kind == ci.TokenKind.LITERAL):
                self.record(i, op, reason)

    def point(self, op, a, b, ctx, how="select"):
        p = Point(self.u, op, a, b, ctx["func"], ctx["full"], how)
        self.u.points.append(p)
        return p

    # -- the walk --

    def run(self):
        tops = [c for c in self.u.tu.cursor.get_children()
                if c.location.file is not None and
                c.location.file.name == self.u.path]
        # what each identifier of the file stands for, when it stands
        # alone: a macro is a constant only if it expands to one node
        for top in tops:
            for c in top.walk_preorder():
                r = self.u.trange(c) if c.kind.is_expression() else None
                if r and r[0] == r[1] and c.kind not in WRAPPERS and \
                        self.u.toks[r[0]][3] == ci.TokenKind.IDENTIFIER:
                    self.u.single.setdefault(r[0], []).append(c)
        for c in tops:
            self.top(c)

    def top(self, c):
        r = self.u.trange(c)
        if c.kind == K.FUNCTION_DECL:
            if c.is_definition():
                self.function(c)
            elif r:
                self.skip_range(r[0], r[1], "a declaration")
        elif c.kind == K.VAR_DECL:
            self.var(c, {"func": c.spelling, "skip": None, "full": r,
                         "static": True, "fn": None})
        elif c.kind == K.STATIC_ASSERT:
            if r:
                self.skip_range(r[0], r[1], "a _Static_assert: the build "
                                "itself judges it")
        elif r:
            self.skip_range(r[0], r[1], "a type definition")

    def function(self, c):
        u = self.u
        key = u.key_of(c)
        u.funcs[key] = {"name": c.spelling, "line": c.location.line,
                        "static": c.linkage == ci.LinkageKind.INTERNAL}
        u.edges.setdefault(key, set())
        body = [k for k in c.get_children() if k.kind == K.COMPOUND_STMT]
        r, br = u.trange(c), u.trange(body[0])
        self.skip_range(r[0], br[0] - 1, "a declaration")
        ctx = {"func": c.spelling, "key": key, "skip": None, "full": None,
               "static": False, "fn": c}
        u.entries[br[0]] = key
        self.stmt(body[0], ctx)

    # statements

    def stmt(self, c, ctx):
        u = self.u
        k = c.kind
        r = u.trange(c)
        if k == K.COMPOUND_STMT:
            for s in c.get_children():
                self.stmt(s, ctx)
        elif k == K.DECL_STMT:
            ends = []
            for d in c.get_children():
                dr = u.trange(d)
                if dr:
                    ends.append(dr[1])
                if d.kind == K.VAR_DECL:
                    self.var(d, dict(ctx, full=u.trange(d),
                                     static=d.storage_class ==
                                     ci.StorageClass.STATIC))
                elif d.kind == K.STATIC_ASSERT or d.kind in TYPE_DEFS:
                    dr = u.trange(d)
                    if dr:
                        self.skip_range(dr[0], dr[1], "a _Static_assert: "
                                        "the build itself judges it"
                                        if d.kind == K.STATIC_ASSERT else
                                        "a type definition")
            # what follows the last declarator: __attribute__((...))
            if r and ends:
                self.skip_range(max(ends) + 1, r[1], "an attribute")
        elif k in (K.IF_STMT, K.WHILE_STMT):
            kids = list(c.get_children())
            self.negate(r[0], kids[0], ctx)
            for s in kids[1:]:
                self.stmt(s, ctx)
        elif k == K.DO_STMT:
            kids = list(c.get_children())
            self.stmt(kids[0], ctx)
            cr = u.trange(kids[1])
            self.negate(cr[0] - 2, kids[1], ctx)
        elif k == K.FOR_STMT:
            self.for_stmt(c, r, ctx)
        elif k == K.SWITCH_STMT:
            kids = list(c.get_children())
            cond = kids[0]
            cr = u.trange(cond)
            probe = self.point("probe", cr[0], cr[1], ctx, how="probe")
            self.expr(cond, dict(ctx, full=cr))
            self.stmt(kids[1], dict(ctx, switch=probe))
        elif k == K.CASE_STMT:
            kids = list(c.get_children())
            lr = u.trange(kids[0])
            self.expr(kids[0], dict(ctx, full=lr, skip="a case label",
                                    alt=True))
            for s in kids[1:]:
                self.stmt(s, ctx)
        elif k in (K.DEFAULT_STMT, K.LABEL_STMT):
            for s in c.get_children():
                self.stmt(s, ctx)
        elif k == K.RETURN_STMT:
            self.ret(c, r, ctx)
        elif k in (K.BREAK_STMT, K.CONTINUE_STMT, K.GOTO_STMT,
                   K.NULL_STMT):
            pass
        elif k.is_expression():
            self.expr(c, dict(ctx, full=r), stmt=True)
        else:
            raise SystemExit("srcmut: %s:%d: a %s, which the walk does not "
                             "know" % (u.rel, c.location.line, k.name))

    def negate(self, tok, cond, ctx):
        """The condition @cond of the statement whose keyword is @tok."""
        cr = self.u.trange(cond)
        self.negate_point(tok, cr, ctx)
        self.expr(cond, dict(ctx, full=cr))

    def negate_point(self, tok, cr, ctx):
        """The condition at tokens @cr, of the keyword (or ?) @tok."""
        if ctx["skip"]:
            self.record(tok, "negate", ctx["skip"])
            return
        p = self.point("negate", cr[0], cr[1], ctx, how="negate")
        p.sub["C"] = cr
        p.variants.append(("not", ["!(", "C", ")"]))
        self.record(tok, "negate", p)

    def for_stmt(self, c, r, ctx):
        u = self.u
        open_ = r[0] + 1
        close = u.match(open_, "(", ")")
        semis = [i for i in range(open_, close)
                 if u.spell(i) == ";" and self.depth(open_, i) == 1]
        kids = list(c.get_children())
        body = kids[-1]
        for k in kids[:-1]:
            kr = u.trange(k)
            if k.kind == K.DECL_STMT:
                self.stmt(k, ctx)
            elif semis[0] < kr[0] < semis[1]:
                self.negate(r[0], k, ctx)
            else:
                self.expr(k, dict(ctx, full=kr), stmt=True)
        if not any(semis[0] < u.trange(k)[0] < semis[1] for k in kids[:-1]):
            self.record(r[0], "negate", "a for without a condition")
        self.stmt(body, ctx)

    def depth(self, open_, i):
        d = 0
        for j in range(open_, i):
            s = self.u.spell(j)
            d += s == "("
            d -= s == ")"
        return d

    def ret(self, c, r, ctx):
        kids = [k for k in c.get_children() if k.kind.is_expression()]
        if not kids:
            self.record(r[0], "return", "no value")
            return
        e = kids[0]
        er = self.u.trange(e)
        self.expr(e, dict(ctx, full=r, ret=True))
        rt = ctx["fn"].result_type
        variants = return_variants(rt, self.u.flat(er[0], er[1]))
        if not variants:
            self.record(r[0], "return", "a %s: no constant to put "
                        "instead" % rt.spelling)
            return
        p = self.point("return", r[0], er[1], ctx, how="return")
        p.sub["E"] = er
        p.type = rt.spelling
        p.variants = [(n, [v]) for n, v in variants]
        self.record(r[0], "return", p)

    def var(self, d, ctx):
        """A declaration: its declarator's tokens (array sizes) are no
        point; its initializer is, or, when it is static, a table's."""
        u = self.u
        r = u.trange(d)
        if not r:
            return
        eq = None
        for i in range(r[0], r[1] + 1):
            if u.spell(i) == "=" and self.depth_all(r[0], i) == 0:
                eq = i
                break
        init = None
        kids = list(d.get_children())
        if eq is not None:
            init = [k for k in kids if k.kind.is_expression() and
                    u.trange(k) and u.trange(k)[0] > eq]
            init = init[-1] if init else None
            self.record(eq, "assign-delete", "an initialization, no "
                        "assignment")
        self.skip_range(r[0], (eq - 1) if eq is not None else r[1],
                        "a declarator (an array size is a constant "
                        "expression)")
        for k in kids:
            kr = u.trange(k)
            if kr and eq is not None and kr[0] > eq and k is not init:
                self.expr(k, ctx)
        if init is None:
            return
        if ctx["static"]:
            self.static_init(d, init, ctx)
        else:
            self.expr(init, ctx)

    def depth_all(self, a, i):
        d = 0
        for j in range(a, i):
            s = self.u.spell(j)
            if s in "([{":
                d += 1
            elif s in ")]}":
                d -= 1
        return d

    def table_edges(self, init):
        """The functions a table's designated initializers name: every
        read of the field each one initializes reaches it
        (".post_send_one = ref_rxe_post_send_one": a call through
        prov->post_send_one, see expr()).  Not the table itself: what
        picks a provider (ibv_open_device) calls none of its parts."""
        u = self.u
        for c in init.walk_preorder():
            ref = c.referenced if c.kind == K.DECL_REF_EXPR else None
            if ref is None or ref.kind != K.FUNCTION_DECL:
                continue
            fn = self.ref_key(ref)
            r = u.trange(c)
            if r and r[0] >= 3 and u.spell(r[0] - 1) == "=" and \
                    u.spell(r[0] - 3) == ".":
                u.edges.setdefault("field:" + u.spell(r[0] - 2),
                                   set()).add(fn)

    def static_init(self, d, init, ctx):
        """A static table: each scalar constant of its initializer is a
        point patched before main; the rest is listed."""
        u = self.u
        kids = []
        self.table_edges(init)

        def leaves(c, path, ty):
            c = strip_wrappers(c)
            if c.kind == K.INIT_LIST_EXPR:
                fields = None
                cty = ty.get_canonical()
                if cty.kind == T.RECORD:
                    fields = [f for f in cty.get_declaration().get_children()
                              if f.kind == K.FIELD_DECL]
                for i, k in enumerate(c.get_children()):
                    kr = u.trange(k)
                    if kr and u.spell(kr[0]) in (".", "["):
                        return False	# designators: no path
                    if fields is not None:
                        if i >= len(fields):
                            return False
                        sub = "%s.%s" % (path, fields[i].spelling)
                        fty = fields[i].type
                    elif cty.kind in (T.CONSTANTARRAY, T.INCOMPLETEARRAY):
                        sub = "%s[%d]" % (path, i)
                        fty = cty.element_type
                    else:
                        return False
                    if leaves(k, sub, fty) is False:
                        return False
                return True
            kids.append((c, path))
            return True

        ok = leaves(init, d.spelling, d.type)
        ir = u.trange(init)
        if not ok or d.type.get_canonical().kind not in \
                (T.CONSTANTARRAY, T.INCOMPLETEARRAY):
            self.skip_range(ir[0], ir[1], "a static initializer")
            return
        const = [i for i in range(u.trange(d)[0], ir[0])
                 if u.spell(i) == "const"]
        for c, path in kids:
            cr = u.trange(c)
            if c.kind in (K.INTEGER_LITERAL, K.CHARACTER_LITERAL) and cr \
                    and cr[0] == cr[1]:
                v = evaluate(c)
                p = self.point("constant", cr[0], cr[1],
                               dict(ctx, full=self.entry_range(init, c)))
                p.sub["X"] = cr
                p.build = "table"
                p.path = path
                p.variants = constant_variants(v, False)
                p.table = d.spelling
                self.record(cr[0], "constant", p)
                if const:
                    u.tables.add(const[0])
            elif cr:
                self.skip_range(cr[0], cr[1], "a static initializer")
        self.skip_range(ir[0], ir[1], "a static initializer")

    def entry_range(self, init, leaf):
        """The element of a table a constant is in (for its hash)."""
        lr = self.u.trange(leaf)
        for k in init.get_children():
            kr = self.u.trange(k)
            if kr and kr[0] <= lr[0] and lr[1] <= kr[1]:
                return kr
        return lr

    # expressions

    def expr(self, c, ctx, stmt=False, parent=None):
        u = self.u
        k = c.kind
        r = u.trange(c)
        if r:
            u.expr_toks.update(range(r[0], r[1] + 1))
        kids = [x for x in c.get_children()]
        if k == K.MEMBER_REF_EXPR and ctx.get("key"):
            # a function pointer field: what the tables put there
            ref = c.referenced
            fty = ref.type.get_canonical() if ref is not None and \
                ref.kind == K.FIELD_DECL else None
            if fty is not None and fty.kind == T.POINTER and \
                    fty.get_pointee().kind in (T.FUNCTIONPROTO,
                                               T.FUNCTIONNOPROTO):
                u.edges.setdefault(ctx["key"], set()).add(
                    "field:" + ref.spelling)
        if k == K.DECL_REF_EXPR:
            ref = c.referenced
            if ref is not None and ref.kind in (K.FUNCTION_DECL, K.VAR_DECL) \
                    and ctx.get("key"):
                if ref.kind == K.FUNCTION_DECL or ref.semantic_parent.kind == \
                        K.TRANSLATION_UNIT:
                    u.edges[ctx["key"]].add(self.ref_key(ref))
            if ref is not None and ref.kind == K.ENUM_CONSTANT_DECL:
                self.constant(c, r, ctx, parent, ref.enum_value)
            return
        if k in (K.INTEGER_LITERAL, K.CHARACTER_LITERAL):
            self.constant(c, r, ctx, parent, evaluate(c))
            return
        if k == K.CXX_UNARY_EXPR or (k == K.UNEXPOSED_EXPR and r and
                                     u.spell(r[0]) == "offsetof"):
            # spelled here (not in a macro's body, whose range is the
            # whole invocation, arguments and all)
            if r and u.spell(r[0]) in ("sizeof", "_Alignof", "__alignof__",
                                       "offsetof"):
                self.skip_range(r[0], r[1], "not evaluated (sizeof)")
            return
        if k in (K.CSTYLE_CAST_EXPR, K.COMPOUND_LITERAL_EXPR) and r and \
                u.spell(r[0]) == "(":
            close = u.match(r[0], "(", ")")
            if close is not None:
                self.skip_range(r[0], close, "a type name")
        if k in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR):
            self.binary(c, r, kids, ctx, stmt)
            return
        if k == K.UNARY_OPERATOR:
            self.unary(c, r, kids, ctx)
            return
        if k == K.CONDITIONAL_OPERATOR and r:
            cond = kids[0]
            cr = u.trange(cond)
            if cr and u.spell(cr[1] + 1) == "?":
                self.negate_point(cr[1] + 1, cr, ctx)
            for x in kids:
                self.expr(x, ctx, parent=c)
            return
        if k == K.UNEXPOSED_EXPR and r and len(kids) >= 2:
            # GNU a ?: b, whose condition is its value: no negation of
            # its own
            cr = u.trange(kids[0])
            if cr and cr[1] + 2 <= r[1] and u.spell(cr[1] + 1) == "?" and \
                    u.spell(cr[1] + 2) == ":":
                self.record(cr[1] + 1, "negate", "a ?: b (GNU): the "
                            "condition is the value")
        if k == K.CALL_EXPR and r and u.spell(r[0]) in BYTEORDER:
            self.byteorder(c, r, ctx)
        if k == K.INIT_LIST_EXPR:
            for x in kids:
                xr = u.trange(x)
                if xr and u.spell(xr[0]) in (".", "["):
                    eq = [i for i in range(xr[0], xr[1] + 1)
                          if u.spell(i) == "="]
                    if eq:
                        self.record(eq[0], "assign-delete",
                                    "a designated initializer")
                    # [N] = x: the index is a constant expression
                    if u.spell(xr[0]) == "[" and eq:
                        self.skip_range(xr[0], eq[0], "an array designator")
        if k == K.MEMBER_REF:
            return
        for x in kids:
            if x.kind.is_expression():
                self.expr(x, ctx, parent=c)
            elif x.kind == K.MEMBER_REF:
                pass

    def ref_key(self, ref):
        if ref.linkage == ci.LinkageKind.INTERNAL:
            f = ref.location.file
            if f is not None and f.name == self.u.path:
                return "%s:%s" % (self.u.rel, ref.spelling)
        return ref.spelling

    def constant(self, c, r, ctx, parent, value):
        u = self.u
        if not r or r[0] != r[1]:
            return	# spelled in a macro's body: no token of its own here
        tok = r[0]
        kind = u.toks[tok][3]
        if kind == ci.TokenKind.IDENTIFIER:
            # a macro: a point only if it is this one constant
            if len(u.single.get(tok, [])) != 1:
                return
        elif kind != ci.TokenKind.LITERAL:
            return
        if ctx["skip"] and not ctx.get("alt"):
            self.record(tok, "constant", ctx["skip"])
            return
        if ctx.get("ret") and ctx["full"] and \
                u.flat(ctx["full"][0] + 1, ctx["full"][1]) in (
                    u.spell(tok), "- " + u.spell(tok)):
            self.record(tok, "constant", "the whole return value: the "
                        "return operator replaces it")
            return
        if parent is not None and value == 0 and \
                parent.kind in (K.UNEXPOSED_EXPR, K.CSTYLE_CAST_EXPR) and \
                parent.type.get_canonical().kind == T.POINTER:
            self.record(tok, "constant", "a null pointer constant")
            return
        truth = parent is not None and \
            parent.type.get_canonical().kind == T.BOOL
        variants = constant_variants(value, truth)
        if not variants:
            self.record(tok, "constant", "no value (not a constant here)")
            return
        p = self.point("constant", tok, tok, ctx)
        p.sub["X"] = (tok, tok)
        p.variants = variants
        if ctx.get("alt"):
            p.build = "alt"
            p.probe = ctx.get("switch")
        self.record(tok, "constant", p)

    def binary(self, c, r, kids, ctx, stmt):
        u = self.u
        kids = [x for x in kids if x.kind.is_expression()]
        lhs, rhs = kids[0], kids[1]
        lr, rr = u.trange(lhs), u.trange(rhs)
        op_tok = lr[1] + 1 if lr and rr and r and lr[1] + 2 == rr[0] \
            else None
        if op_tok is not None:
            op = u.spell(op_tok)
            self.binary_points(c, r, op_tok, op, lhs, rhs, lr, rr, ctx, stmt)
        for x in kids:
            self.expr(x, ctx, parent=c)

    def binary_points(self, c, r, tok, op, lhs, rhs, lr, rr, ctx, stmt):
        base = op[:-1] if op.endswith("=") and op[:-1] in SWAPS else op
        compound = base != op
        if op == "=" or compound:
            self.assign(c, r, tok, lhs, rhs, lr, rr, ctx, stmt, compound)
        if base not in BINARY_KIND:
            return
        kind = BINARY_KIND[base]
        if ctx["skip"]:
            self.record(tok, kind, ctx["skip"])
            return
        pointers = [x.type.get_canonical().kind == T.POINTER
                    for x in (lhs, rhs)]
        if kind == "relational":
            if base in EQUALITY:
                news = [o for o in EQUALITY if o != base]
            elif any(pointers):
                news = [o for o in ORDERING if o != base]
            else:
                news = [o for o in ORDERING if o != base] + list(EQUALITY)
        else:
            if base == "-" and all(pointers):
                self.record(tok, kind, "the difference of two pointers")
                return
            news = SWAPS[base]
        p = self.point(kind, r[0], r[1], ctx)
        p.sub["L"], p.sub["R"] = lr, rr
        for n in news:
            o = n + "=" if compound else n
            p.variants.append((o, ["(", "L", ") %s (" % o, "R", ")"]))
        self.record(tok, kind, p)

    def assign(self, c, r, tok, lhs, rhs, lr, rr, ctx, stmt, compound):
        target = self.target(lhs, lr, ctx)
        if ctx["skip"]:
            self.record(tok, "assign-delete", ctx["skip"])
            return
        if not target:
            self.record(tok, "assign-delete", "an assignment to a local "
                        "variable")
            return
        if not stmt:
            ty = c.type.get_canonical()
            if compound or ty.kind not in SIGNED + UNSIGNED + \
                    (T.POINTER, T.BOOL):
                self.record(tok, "assign-delete", "the value of an "
                            "assignment is used, and cannot stand alone")
                return
        p = self.point("assign-delete", r[0], r[1], ctx,
                       how="void" if stmt else "select")
        p.sub["R"] = rr
        if stmt:
            p.variants.append(("del", ["R"]))
        else:
            p.type = c.type.get_canonical().spelling
            p.variants.append(("del", ["(%s)(" % p.type, "R", ")"]))
        self.record(tok, "assign-delete", p)

    def target(self, lhs, lr, ctx):
        """What an assignment writes, when it is a point: a field, an
        out-parameter, errno, a static variable."""
        u = self.u
        if lr and lr[0] == lr[1] and u.spell(lr[0]) == "errno":
            return "errno"
        c = strip_wrappers(lhs)
        if c.kind == K.MEMBER_REF_EXPR:
            return "field"
        if c.kind == K.DECL_REF_EXPR and c.referenced is not None and \
                c.referenced.kind == K.VAR_DECL and (
                    c.referenced.semantic_parent.kind == K.TRANSLATION_UNIT
                    or c.referenced.storage_class == ci.StorageClass.STATIC):
            return "static"
        if c.kind == K.UNARY_OPERATOR or c.kind == K.ARRAY_SUBSCRIPT_EXPR:
            base = strip(list(c.get_children())[0])
            if base.kind == K.DECL_REF_EXPR and base.referenced is not None \
                    and base.referenced.kind == K.PARM_DECL and \
                    base.referenced.type.get_canonical().kind in \
                    (T.POINTER, T.CONSTANTARRAY, T.INCOMPLETEARRAY):
                return "out-parameter"
        return None

    def unary(self, c, r, kids, ctx):
        u = self.u
        kids = [x for x in kids if x.kind.is_expression()]
        if r and kids:
            xr = u.trange(kids[0])
            first, last = u.spell(r[0]), u.spell(r[1])
            if xr and xr[0] == r[0] + 1 and first in ("++", "--"):
                self.incdec(c, r, r[0], xr, ctx, True)
            elif xr and xr[1] == r[1] - 1 and last in ("++", "--") and \
                    xr[0] == r[0]:
                self.incdec(c, r, r[1], xr, ctx, False)
            elif xr and xr[0] == r[0] + 1:
                what = {"-": "a unary minus", "+": "a unary plus",
                        "*": "a dereference", "&": "an address-of"}
                if first in what:
                    self.record(r[0], token_kinds(first, False)[0],
                                ctx["skip"] or what[first])
        for x in kids:
            self.expr(x, ctx, parent=c)

    def incdec(self, c, r, tok, xr, ctx, prefix):
        if ctx["skip"]:
            self.record(tok, "arithmetic", ctx["skip"])
            return
        other = "--" if self.u.spell(tok) == "++" else "++"
        p = self.point("arithmetic", r[0], r[1], ctx)
        p.sub["X"] = xr
        p.variants.append((other, [other + "(", "X", ")"] if prefix else
                           ["(", "X", ")" + other]))
        self.record(tok, "arithmetic", p)

    def byteorder(self, c, r, ctx):
        u = self.u
        name = u.spell(r[0])
        if u.spell(r[0] + 1) != "(" or u.match(r[0] + 1, "(", ")") != r[1]:
            self.record(r[0], "byteorder", "not a call of its own")
            return
        if ctx["skip"]:
            self.record(r[0], "byteorder", ctx["skip"])
            return
        p = self.point("byteorder", r[0], r[1], ctx)
        p.sub["A"] = (r[0] + 2, r[1] - 1)
        p.type = c.type.get_canonical().spelling
        p.variants.append(("drop", ["(%s)(" % p.type, "A", ")"]))
        for other in BYTEORDER[name]:
            if other != name:
                p.variants.append((other, ["(%s)%s(" % (p.type, other), "A",
                                           ")"]))
        self.record(r[0], "byteorder", p)


def strip_wrappers(c):
    while c.kind in WRAPPERS:
        kids = [k for k in c.get_children() if k.kind.is_expression()]
        if len(kids) != 1:
            break
        c = kids[0]
    return c


def constant_variants(value, truth):
    """+1, -1, 0 of @value, each once and none equal to it; for a truth
    value only the other truth value."""
    if value is None:
        return []
    if truth:
        return [("0", ["0"])] if value else [("+1", ["1"])]
    out = []
    seen = {value}
    # (X) - (X): a zero of the constant's own type
    for name, v, parts in (("+1", value + 1, ["(", "X", ") + 1"]),
                           ("-1", value - 1, ["(", "X", ") - 1"]),
                           ("0", 0, ["(", "X", ") - (", "X", ")"])):
        if v not in seen:
            seen.add(v)
            out.append((name, parts))
    return out


def return_variants(rt, text):
    """What a return of @text from a function of type @rt becomes."""
    ty = rt.get_canonical()
    if ty.kind == T.VOID:
        return []
    if ty.kind == T.BOOL:
        cands = [("false", "0"), ("true", "1")]
        same = {"true": "true", "1": "true", "false": "false", "0": "false"}
        return [(n, v) for n, v in cands if same.get(text) != n]
    if ty.kind == T.POINTER:
        # the value is the last operand of a comma
        last = text.rsplit(" , ", 1)[-1]
        out = [("NULL", "((void *)0)")] if last not in ("NULL", "0") else []
        if ty.get_pointee().kind in (T.CHAR_S, T.CHAR_U, T.SCHAR):
            if text != '""':
                out.append(("empty", '""'))
        return out
    if ty.kind in SIGNED + UNSIGNED:
        cands = [("0", "0"), ("-1", "-1"), ("1", "1")]
        return [(n, v) for n, v in cands
                if text not in (v, v.replace("-", "- "))]
    return []


# --- rendering ----------------------------------------------------------

def nest(points):
    """Points into a forest by their token ranges."""
    roots, stack = [], []
    for p in sorted(points, key=Point.key):
        p.kids = []
        while stack and not (stack[-1].a <= p.a and p.b <= stack[-1].b):
            if p.a <= stack[-1].b:
                raise SystemExit("srcmut: %s:%d: points overlap" %
                                 (p.unit.rel, p.unit.line_of(p.a)))
            stack.pop()
        if stack:
            stack[-1].kids.append(p)
        else:
            roots.append(p)
        stack.append(p)
    return roots


class Renderer:
    """The schematized text of a unit: each point as a choice between
    its mutants and itself.  Copies other than the original's are written
    on one line, without comments, so that the file keeps its lines."""

    def __init__(self, unit, override=None):
        self.u = unit
        self.override = override or {}	# token index -> text

    def span(self, a, b, kids, flat):
        u = self.u
        out = []
        i = a
        kids = [k for k in kids if a <= k.a and k.b <= b]
        ki = 0
        while i <= b:
            if ki < len(kids) and kids[ki].a == i:
                out.append(self.point(kids[ki], flat))
                i = kids[ki].b + 1
                ki += 1
                continue
            out.append(self.token(i, flat))
            if i < b:
                out.append(" " if flat else
                           u.raw[u.toks[i][1]:u.toks[i + 1][0]].decode())
            i += 1
        return "".join(out)

    def token(self, i, flat):
        u = self.u
        if i in self.override:
            return self.override[i]
        s = u.toks[i][2]
        if flat and u.toks[i][3] == ci.TokenKind.COMMENT:
            return ""
        if not flat and i in u.entries_slot:
            s += " RC_COV(%d);" % u.entries_slot[i]
        return s

    def parts(self, p, parts):
        return "".join(self.span(*p.sub[x], p.kids, True) if x in p.sub
                       else x for x in parts)

    def point(self, p, flat):
        if p.build != "schema" or not p.ids and p.how != "probe":
            return self.span(p.a, p.b, p.kids, flat)
        orig = self.span(p.a, p.b, p.kids, flat)
        cov = "RC_COV(%d)" % p.slot
        if p.how == "probe":
            return "(%s, %s)" % (cov, orig)
        if p.how == "negate":
            a, b = p.sub["C"]
            return "(%s, !(%s) == RC_SM(%d))" % (
                cov, self.span(a, b, p.kids, flat), p.ids[0])
        if p.how == "return":
            a, b = p.sub["E"]
            e = self.span(a, b, p.kids, flat)
            sel = "".join("RC_SM(%d) ? (%s)(%s) : " % (n, p.type, parts[0])
                          for n, (_, parts) in zip(p.ids, p.variants))
            return "return ({ %s; %s rc_sm_r = (%s); %src_sm_r; })" % (
                cov, p.type, e, sel)
        sel = "".join("RC_SM(%d) ? %s(%s) : " % (
            n, "(void)" if p.how == "void" else "",
            self.parts(p, parts))
            for n, (_, parts) in zip(p.ids, p.variants))
        if p.how == "void":
            return "(%s, %s(void)(%s))" % (cov, sel, orig)
        return "(%s, %s(%s))" % (cov, sel, orig)

    def text(self):
        u = self.u
        roots = nest([p for p in u.points if p.build == "schema"] +
                     u.probes)
        body = self.span(0, len(u.toks) - 1, roots, False) \
            if u.toks else ""
        head = u.raw[:u.toks[0][0]].decode() if u.toks else ""
        tail = u.raw[u.toks[-1][1]:].decode() if u.toks else ""
        return head + body + tail


def flat_parts(p, parts):
    return "".join(p.unit.flat(*p.sub[x]) if x in p.sub else x
                   for x in parts)


def display(p, parts):
    """A variant as source text (for the reports)."""
    u = p.unit
    text = flat_parts(p, parts)
    if p.op == "return":
        return "return " + text
    if p.op == "assign-delete":
        return "/* %s = */ %s" % (u.flat(p.a, p.sub["R"][0] - 2), text)
    return text


# --- the whole reference ------------------------------------------------

def parse_args_for(path):
    return ["-std=gnu11", "-I" + os.path.dirname(path)]


def load(paths, root=ROOT):
    units = []
    for path in paths:
        rel = os.path.relpath(path, os.path.join(root, "reference")) \
            if path.startswith(os.path.join(root, "reference")) else \
            os.path.basename(path)
        u = Unit(os.path.abspath(path), rel, parse_args_for(path))
        Walker(u).run()
        units.append(u)
    return units


def reference_sources(root=ROOT):
    out = []
    for d in sorted(os.listdir(os.path.join(root, "reference"))):
        p = os.path.join(root, "reference", d)
        if os.path.isdir(p):
            out += [os.path.join(p, f) for f in sorted(os.listdir(p))
                    if f.endswith(".c")]
    return out


def ops_calls(root=ROOT):
    """The calls of the ops table (harness/impl.h): X(name, ...)."""
    with open(os.path.join(root, "harness", "impl.h")) as f:
        text = f.read()
    return re.findall(r"\bX\((\w+),", text)


def number(units):
    """Coverage slots, mutant numbers and stable ids, in file order."""
    slot = 0
    n = 0
    mutants = []
    for u in units:
        u.entries_slot = {}
        for tok, key in sorted(u.entries.items()):
            u.entries_slot[tok] = slot
            u.funcs[key]["slot"] = slot
            slot += 1
        u.probes = [p for p in u.points if p.op == "probe"]
        u.points = [p for p in u.points if p.op != "probe"]
        for p in u.probes:
            p.slot = slot
            slot += 1
        seen = {}
        for p in sorted(u.points, key=Point.key):
            if p.build == "alt":
                p.slot = p.probe.slot if p.probe else None
            elif p.build == "table":
                p.slot = None
            else:
                p.slot = slot
                slot += 1
            ctx = u.flat(*p.full) if p.full else ""
            h = hashlib.sha1(("%s|%s" % (u.flat(p.a, p.b), ctx))
                             .encode()).hexdigest()[:4]
            k = (p.func, p.op, h)
            seen[k] = seen.get(k, 0) + 1
            p.stable = "%s:%s:%s:%s.%d" % (u.rel, p.func, p.op, h, seen[k])
            p.ids = []
            for name, parts in p.variants:
                n += 1
                p.ids.append(n)
                mutants.append((n, p, name, parts))
    return slot, mutants


# The documented calls that libibverbs' header dispatches through an
# object's function pointer (ibv_wr_start(qp) is qp->wr_start(qp),
# ibv_start_poll(cq) cq->start_poll(cq, attr)): no ref_ function is
# theirs, and the rows of create_qp_ex or create_cq_ex, which put the
# pointers in place, never call them.  Each is owned by the static
# functions the reference puts in that pointer (what a reader returns
# was copied by start_poll and next_poll, whose rows read it back).
DISPATCHED = dict(
    [("ibv_" + f, ["verbs/qp_ex.c:" + f]) for f in (
        "wr_start", "wr_complete", "wr_abort", "wr_send", "wr_send_imm",
        "wr_rdma_write", "wr_rdma_write_imm", "wr_rdma_read",
        "wr_atomic_cmp_swp", "wr_atomic_fetch_add", "wr_bind_mw",
        "wr_local_inv", "wr_send_inv", "wr_set_sge", "wr_set_sge_list",
        "wr_set_inline_data", "wr_set_inline_data_list",
        "wr_set_ud_addr")] +
    [("ibv_" + f, ["verbs/cq_poll.c:" + f]) for f in (
        "start_poll", "next_poll", "end_poll")] +
    [("ibv_wc_" + f, ["verbs/cq_poll.c:" + f]) for f in (
        "read_opcode", "read_vendor_err", "read_wc_flags", "read_byte_len",
        "read_imm_data", "read_qp_num", "read_src_qp", "read_slid",
        "read_sl", "read_dlid_path_bits")])


def owners_of(units, calls):
    """For every function and table: the calls of @calls whose ref_
    function (or DISPATCHED function) reaches it (the static call graph,
    function pointers and tables included)."""
    edges = {}
    for u in units:
        for k, v in u.edges.items():
            edges.setdefault(k, set()).update(v)
    owners = {}
    for call in calls:
        entries = DISPATCHED.get(call, ["ref_" + call])
        missing = [e for e in entries if e not in edges]
        if missing and call in DISPATCHED:
            raise SystemExit("srcmut: %s: no %s in the reference" % (
                call, " ".join(missing)))
        if missing:
            continue
        todo, seen = list(entries), set(entries)
        while todo:
            f = todo.pop()
            owners.setdefault(f, set()).add(call)
            for g in edges.get(f, ()):
                if g not in seen:
                    seen.add(g)
                    todo.append(g)
    return owners


def point_owner_keys(p):
    """The functions (or tables) a point belongs to."""
    u = p.unit
    if p.build == "table":
        key = "%s:%s" % (u.rel, p.table)
        return [f for f, refs in u.edges.items() if key in refs or
                p.table in refs]
    for k, f in u.funcs.items():
        if f["name"] == p.func:
            return [k]
    return []


def table_patch(u):
    """The constructor that puts a table point's mutant in place."""
    cases = []
    for p in sorted(u.points, key=Point.key):
        if p.build != "table":
            continue
        for n, (_, parts) in zip(p.ids, p.variants):
            cases.append("\tcase %d:\n\t\t%s = %s;\n\t\tbreak;\n" % (
                n, p.path, flat_parts(p, parts)))
    if not cases:
        return ""
    return ("\n/* srcmut: the mutants of its static tables */\n"
            "static void __attribute__((constructor)) rc_srcmut_tables(void)\n"
            "{\n\tswitch (rc_srcmut) {\n%s\t}\n}\n" % "".join(cases))


def generate(units, out, calls=None):
    """The schematized copy of every unit under @out/src, and the
    sources of the alt mutants under @out/alt; returns the manifest.
    @calls: the calls whose ref_ functions own the points (the ops
    table's)."""
    calls = ops_calls() + sorted(DISPATCHED) if calls is None else calls
    slots, mutants = number(units)
    owners = owners_of(units, calls)
    files = {}
    for u in units:
        override = {t: "" for t in u.tables}
        text = Renderer(u, override).text()
        text = '#include "srcmut_rt.h"\n#line 1 "reference/%s"\n%s%s' % (
            u.rel, text, table_patch(u))
        files[u.rel] = text
        write(os.path.join(out, "src", u.rel), text)
    alts = {}
    for n, p, name, parts in mutants:
        if p.build != "alt":
            continue
        u = p.unit
        override = {t: "" for t in u.tables}
        override[p.a] = "(%s)" % flat_parts(p, parts)
        text = Renderer(u, override).text()
        text = '#include "srcmut_rt.h"\n#line 1 "reference/%s"\n%s%s' % (
            u.rel, text, table_patch(u))
        alts[n] = u.rel
        write(os.path.join(out, "alt", "%d" % n, u.rel), text)
    manifest = {"slots": slots, "calls": calls, "mutants": [],
                "functions": {}, "unbuilt": [], "sources": sorted(files)}
    for u in units:
        for k, f in u.funcs.items():
            manifest["functions"][k] = dict(
                f, file=u.rel, owners=sorted(owners.get(k, ())))
        for (tok, op), what in sorted(u.records.items()):
            if isinstance(what, str) and op == "constant" and \
                    what.startswith(("a declarator", "a _Static_assert",
                                     "a type definition")):
                manifest["unbuilt"].append({
                    "file": u.rel, "line": u.line_of(tok), "operator": op,
                    "text": u.spell(tok), "reason": what})
    for n, p, name, parts in mutants:
        u = p.unit
        keys = point_owner_keys(p)
        own = sorted(set().union(*[owners.get(k, set()) for k in keys]))
        line = u.line_of(p.a)
        src = u.raw.decode().splitlines()[line - 1].strip()
        manifest["mutants"].append({
            "n": n, "id": "%s:%s" % (p.stable, name), "file": u.rel,
            "line": line, "function": p.func, "operator": p.op,
            "variant": name, "original": u.flat(p.a, p.b),
            "mutated": display(p, parts),
            "source": src, "build": p.build, "slot": p.slot,
            "owners": own, "functions": keys})
    write(os.path.join(out, "manifest.json"),
          json.dumps(manifest, indent=1) + "\n")
    return manifest


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    old = None
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
    if old != text:
        with open(path, "w") as f:
            f.write(text)


def cross_check(u):
    """The operator tokens a plain scan of @u finds that the walk neither
    made a point of nor gave a reason for: [(line, token, operator)]."""
    text = u.raw.decode()
    missed = []
    for off, tok, kinds in scan_tokens(text):
        i = u.starts.get(off)
        for op in kinds:
            if i is not None and (i, op) in u.records:
                continue
            if i is not None and op == "arithmetic" and tok == "*" and \
                    i not in u.expr_toks:
                continue	# a pointer declarator
            missed.append((text.count("\n", 0, off) + 1, tok, op))
    return missed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate", help="the schematized tree and manifest")
    g.add_argument("out")
    s = sub.add_parser("scan", help="the cross-check against a token scan")
    s.add_argument("files", nargs="*")
    args = ap.parse_args()
    if args.cmd == "generate":
        units = load(reference_sources())
        m = generate(units, args.out)
        print("srcmut: %d mutants at %d points in %d files" % (
            len(m["mutants"]), len({x["id"].rsplit(":", 1)[0]
                                    for x in m["mutants"]}), len(units)))
        return 0
    units = load(args.files or reference_sources())
    status = 0
    for u in units:
        for line, tok, op in cross_check(u):
            print("%s:%d: %s (%s): no point and no reason" % (
                u.rel, line, tok, op))
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
