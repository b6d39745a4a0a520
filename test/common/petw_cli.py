# SPDX-License-Identifier: MIT
"""petw_cli.py - what the tests that drive the petw command share: a
failure that names the test, a run of petw that fails the test when petw
fails, and a view's rows read from its CSV."""
import csv
import io
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
