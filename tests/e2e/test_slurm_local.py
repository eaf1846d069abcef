"""ci/slurm-local keeps its state where no one else can plant files: a
directory made afresh by mktemp, of this user only; and stop kills only
processes that carry that directory on their command line."""
import os
import subprocess
import time

from conftest import ROOT

SLURM_LOCAL = os.path.join(ROOT, "ci", "slurm-local")


def test_a_planted_pid_file_kills_nothing(tmp_path):
    victim = subprocess.Popen(["sleep", "300"])
    try:
        fake = tmp_path / "rdmaconf-slurm.planted"
        fake.mkdir(mode=0o700)
        (fake / ".rdmaconf-slurm-local").touch()
        (fake / "slurmctld.pid").write_text("%d\n" % victim.pid)
        (fake / "munged.pid").write_text("1\n")
        env = dict(os.environ, RDMACONF_SLURM_DIR=str(tmp_path))
        p = subprocess.run([SLURM_LOCAL, "stop"], env=env,
                           capture_output=True, text=True, timeout=30)
        assert p.returncode == 0, p.stderr
        time.sleep(0.2)
        assert victim.poll() is None, "stop killed a process of no cluster"
    finally:
        victim.kill()


def test_a_directory_of_another_user_is_refused(tmp_path):
    d = tmp_path / "parent"
    d.mkdir(mode=0o700)
    other = d / "rdmaconf-slurm.other"
    other.mkdir(mode=0o700)
    (other / ".rdmaconf-slurm-local").touch()
    os.chown(other, 65534, 65534)
    env = dict(os.environ, RDMACONF_SLURM_DIR=str(d))
    p = subprocess.run([SLURM_LOCAL, "stop"], env=env, capture_output=True,
                       text=True, timeout=30)
    # not ours: neither used nor removed
    assert p.returncode == 0 and other.exists(), p.stderr
    p = subprocess.run([SLURM_LOCAL, "env"], env=env, capture_output=True,
                       text=True, timeout=30)
    assert p.returncode == 81 and "no cluster running" in p.stderr
