#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analysis_symsrv.py PETW GEN_PROFILE_TRACE GEN_PDB CURL MSPACK: Windows PDBs
fetched from a symbol server that _NT_SYMBOL_PATH names (srv*CACHE*URL).

A symbol server on 127.0.0.1 (Python's http.server, started here on a free
port) serves a symbol store's layout. gen_profile_trace's app.exe (PDB
app.pdb, GUID 01020304-0506-0708-090a-0b0c0d0e0f10, age 3, 40 samples at
app+0x1010) is named `main` at a.c:10 by `petw report cpu` for 64- and
32-bit traces when the server holds app.pdb/KEY/app.pdb, and when it holds
only the compressed app.pdb/KEY/app.pd_ (a cabinet written by gcab); the
PDB lands in CACHE/app.pdb/KEY/app.pdb, and the next run reads it there
without asking. A server without the file (404) and one that is down each
cost one line on stderr and leave app.exe!+0x1010, the run succeeding and
the next server asked; a served PDB of another age is not used (said) nor
kept in the cache. No
server is asked when the path names none. CURL and MSPACK ("1" or "0") say
whether petw was built with libcurl and libmspack: without libcurl the test
checks the one line saying servers are not built in."""
import functools
import http.server
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading

KEY = "0102030405060708090A0B0C0D0E0F103"


class Handler(http.server.SimpleHTTPRequestHandler):
    asked = []

    def log_message(self, *args):
        pass

    def do_GET(self):
        Handler.asked.append(self.path)
        super().do_GET()


def serve(root):
    srv = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=root))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, "http://127.0.0.1:%d" % srv.server_address[1]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def report(petw, trace, symbol_path):
    env = dict(os.environ)
    env["_NT_SYMBOL_PATH"] = symbol_path
    r = subprocess.run([petw, "report", "cpu", "--addresses", trace], capture_output=True, text=True, env=env,
                       timeout=60)
    if r.returncode != 0:
        raise SystemExit("petw report failed: %s" % r.stderr)
    return r.stdout, r.stderr


def named(out):
    return any(line.split()[4:5] == ["main"] and line.rstrip().endswith("a.c:10")
               for line in out.splitlines() if len(line.split()) > 4)


def main():
    petw, gen_trace, gen_pdb, curl, mspack = sys.argv[1:6]
    ok = True

    def check(label, cond, detail=""):
        nonlocal ok
        print("%s: %s" % (label, "ok" if cond else "FAILED\n" + detail))
        ok = ok and cond

    with tempfile.TemporaryDirectory() as tmp:
        pdb = os.path.join(tmp, "app.pdb")
        subprocess.run([gen_pdb, pdb, "3"], check=True)
        roots = {}
        for kind in ("pdb", "pd_", "empty", "wrong"):
            roots[kind] = os.path.join(tmp, "srv-" + kind)
            os.makedirs(os.path.join(roots[kind], "app.pdb", KEY))
        shutil.copy(pdb, os.path.join(roots["pdb"], "app.pdb", KEY, "app.pdb"))
        subprocess.run([gen_pdb, os.path.join(roots["wrong"], "app.pdb", KEY, "app.pdb"), "4"],
                       check=True)
        if mspack == "1":
            if not shutil.which("gcab"):
                print("gcab not installed")
                return 77
            subprocess.run(["gcab", "-c", "-z", "-n",
                            os.path.join(roots["pd_"], "app.pdb", KEY, "app.pd_"), pdb],
                           check=True)
        servers = {k: serve(v) for k, v in roots.items()}
        url = {k: v[1] for k, v in servers.items()}
        down = "http://127.0.0.1:%d" % free_port()
        for bits in ("64", "32"):
            trace = os.path.join(tmp, "t%s.etl" % bits)
            subprocess.run([gen_trace, trace] + (["32"] if bits == "32" else []), check=True)
            if curl != "1":
                out, err = report(petw, trace, "srv*%s*%s" % (os.path.join(tmp, "c"), url["pdb"]))
                check("%s-bit, without libcurl" % bits,
                      not named(out) and err.count("not built in") == 1, out + err)
                continue
            kinds = ["pdb"] + (["pd_"] if mspack == "1" else [])
            for kind in kinds:
                cache = os.path.join(tmp, "cache-%s-%s" % (bits, kind))
                Handler.asked.clear()
                out, err = report(petw, trace, "srv*%s*%s" % (cache, url[kind]))
                cached = os.path.join(cache, "app.pdb", KEY, "app.pdb")
                check("%s-bit, .%s fetched" % (bits, kind),
                      named(out) and os.path.isfile(cached) and err == "" and
                      sorted(os.listdir(os.path.dirname(cached))) == ["app.pdb"],
                      out + err + repr(Handler.asked))
                Handler.asked.clear()
                out, err = report(petw, trace, "srv*%s*%s" % (cache, url[kind]))
                check("%s-bit, .%s from the cache, the server not asked" % (bits, kind),
                      named(out) and not Handler.asked and err == "", out + err)
            cache = os.path.join(tmp, "cache-%s-miss" % bits)
            out, err = report(petw, trace, "srv*%s*%s" % (cache, url["empty"]))
            check("%s-bit, 404: one line" % bits,
                  not named(out) and "app.exe!+0x1010" in out and
                  len(err.splitlines()) == 1 and "404" in err, out + err)
            out, err = report(petw, trace, "srv*%s*%s" % (cache, down))
            check("%s-bit, a server down: one line" % bits,
                  not named(out) and "app.exe!+0x1010" in out and len(err.splitlines()) == 1,
                  out + err)
            cache = os.path.join(tmp, "cache-%s-next" % bits)
            out, err = report(petw, trace, "srv*%s*%s;srv*%s*%s;srv*%s*%s" % (
                cache, down, cache, url["empty"], cache, url["pdb"]))
            check("%s-bit, down, then 404, then the right server" % bits,
                  named(out) and len(err.splitlines()) == 2, out + err)
            cache = os.path.join(tmp, "cache-%s-wrong" % bits)
            out, err = report(petw, trace, "cache*%s;srv*%s" % (cache, url["wrong"]))
            check("%s-bit, a served PDB of another age not used, nor kept" % bits,
                  not named(out) and err.count("not used") == 1 and "age 4" in err and
                  not os.path.exists(os.path.join(cache, "app.pdb", KEY, "app.pdb")), out + err)
            Handler.asked.clear()
            out, err = report(petw, trace, os.path.join(tmp, "cache-%s-none" % bits))
            check("%s-bit, no server in the path: none asked" % bits,
                  not named(out) and not Handler.asked, out + err)
        for srv, _ in servers.values():
            srv.shutdown()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
