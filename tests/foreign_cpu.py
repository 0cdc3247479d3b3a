#!/usr/bin/env python3
"""Runs a command and writes to FILE the share of the machine's cores that other processes kept
busy while it ran: (busy time of all cores - CPU time of the command and its descendants) / (wall
time x cores), as a number from 0 to 1 (two decimals).
A test that measures a fault decides "the judge could not tell" is an honest answer only where
this share shows a second job beside it (a build on the same cores scatters the cells); on a
quiet machine the same answer fails the test. The command's CPU time is read from a control group
of its own (cgroup v2 cpu.stat, or v1 cpuacct), which keeps daemons that leave the process tree
(Open MPI's orted on a remote host is one); without one, from the waited-for descendants only.
Interrupt time is no process's: left out of both.
Usage: foreign_cpu.py FILE COMMAND [ARGS...]; exits with the command's status (128 + N when a
signal N ended it)."""
import os
import resource
import subprocess
import sys
import time

CGROUP_ROOTS = (("/sys/fs/cgroup", "cpu.stat"), ("/sys/fs/cgroup/cpuacct", "cpuacct.usage"))


def busy_seconds():
    """Busy time of all cores since boot in processes: user (guest time within), nice, system."""
    with open("/proc/stat") as f:
        user, nice, system = (int(x) for x in f.readline().split()[1:4])
    return (user + nice + system) / os.sysconf("SC_CLK_TCK")


class Group:
    """A control group for the command, or None where none can be made (not root, no cgroupfs)."""

    def __init__(self):
        self.path = self.usage_file = None
        for root, usage in CGROUP_ROOTS:
            if os.path.exists(os.path.join(root, usage)) or os.path.exists(os.path.join(root, "cgroup.controllers")):
                path = os.path.join(root, "fabperf-foreign-%d" % os.getpid())
                try:
                    os.mkdir(path)
                except OSError:
                    continue
                if os.path.exists(os.path.join(path, usage)):
                    self.path, self.usage_file = path, usage
                    return
                os.rmdir(path)

    def enter(self):
        """In the command's process before it starts: join the group."""
        if self.path:
            with open(os.path.join(self.path, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))

    def seconds(self):
        with open(os.path.join(self.path, self.usage_file)) as f:
            if self.usage_file == "cpu.stat":
                return next(int(l.split()[1]) for l in f if l.startswith("usage_usec ")) / 1e6
            return int(f.read()) / 1e9

    def remove(self):
        for _ in range(50):  # daemons of the command may take a moment to end
            try:
                os.rmdir(self.path)
                return
            except OSError:
                time.sleep(0.1)


def main():
    if len(sys.argv) < 3:
        print("usage: foreign_cpu.py FILE COMMAND [ARGS...]", file=sys.stderr)
        return 2
    cores = os.cpu_count() or 1
    group = Group()
    start, busy0 = time.monotonic(), busy_seconds()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    own0 = usage.ru_utime + usage.ru_stime
    try:
        rc = subprocess.call(sys.argv[2:], preexec_fn=group.enter if group.path else None)
    except OSError as e:
        print("foreign_cpu.py: %s: %s" % (sys.argv[2], e.strerror), file=sys.stderr)
        rc = 127
    wall, busy = time.monotonic() - start, busy_seconds() - busy0
    if group.path:
        own = group.seconds()
        group.remove()
    else:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        own = usage.ru_utime + usage.ru_stime - own0
    share = min(1.0, max(0.0, (busy - own) / (wall * cores))) if wall > 0 else 0.0
    with open(sys.argv[1], "w") as f:
        f.write("%.2f\n" % share)
    return 128 - rc if rc < 0 else rc


if __name__ == "__main__":
    sys.exit(main())
