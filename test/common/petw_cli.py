# SPDX-License-Identifier: MIT
"""petw_cli.py - what the tests that drive the petw command share: a
failure that names the test, a run of petw that fails the test when petw
fails, and a view's rows read from its CSV."""
import csv
import io
import os
import subprocess
import sys


class Cli:
    def __init__(self, test, petw):
        self.test, self.petw = test, petw

    def fail(self, why):
        print("%s: %s" % (self.test, why))
        sys.exit(1)

    def run(self, *args):
        """petw ARGS: its standard output."""
        r = subprocess.run([self.petw] + list(args), capture_output=True, text=True)
        if r.returncode != 0:
            self.fail("petw %s: %s" % (" ".join(args), r.stderr))
        return r.stdout

    def rows(self, *args):
        """petw ARGS --format csv: one dict per row."""
        return list(csv.DictReader(io.StringIO(self.run(*args, "--format", "csv"))))


def need_kernel_groups(summary, groups, stacks=(), skip=None):
    """As a user the OS keeps some tracepoints from petw (the recorder's
    Kernel line then leaves their groups out, or says it has no stacks of
    them): skip(why) then, naming them. As root they must be there, and
    the test's own checks fail on what is missing."""
    line = next((l for l in summary.splitlines() if l.startswith("Kernel:")), "")
    have = line.split()[1].split(",") if len(line.split()) > 1 else []
    missing = [g for g in groups if g not in have] + \
        ["%s stacks" % s for s in stacks if "no %s stacks" % s in line]
    if missing and os.geteuid() != 0:
        skip("the OS keeps %s from this user: %s" % (", ".join(missing), line))
