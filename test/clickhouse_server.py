# SPDX-License-Identifier: MIT
"""clickhouse_server.py - a ClickHouse server of its own for a test: Debian's
clickhouse-server (18.16), or a current release's `clickhouse server`, in a
temporary directory with its own configuration, listening on 127.0.0.1
alone on free ports, with a user `loader` whose password is known and a
cluster `petw_shards` of two shards on the server itself (databases shard1
and shard2, for Distributed tables). start()
returns None when no server binary is installed (the test then exits 77)."""
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request

CONFIG = """<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>{dir}/server.log</log>
    <errorlog>{dir}/server.err.log</errorlog><size>10M</size><count>1</count></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>{http}</http_port>
  <tcp_port>{tcp}</tcp_port>
  <path>{dir}/data/</path>
  <tmp_path>{dir}/tmp/</tmp_path>
  <user_files_path>{dir}/user_files/</user_files_path>
  <format_schema_path>{dir}/format_schemas/</format_schema_path>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>5368709120</mark_cache_size>
  <max_concurrent_queries>20</max_concurrent_queries>
  <remote_servers><petw_shards>
    <shard><replica><host>127.0.0.1</host><port>{tcp}</port>
      <default_database>shard1</default_database></replica></shard>
    <shard><replica><host>127.0.0.1</host><port>{tcp}</port>
      <default_database>shard2</default_database></replica></shard>
  </petw_shards></remote_servers>
</yandex>
"""

USERS = """<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>4000000000</max_memory_usage></default></profiles>
  <users>
    <default><password></password><networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile><quota>default</quota></default>
    <loader><password>{password}</password><networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile><quota>default</quota></loader>
  </users>
  <quotas><default></default></quotas>
</yandex>
"""

PASSWORD = "Loader-pw-7f3a"


def server_command():
    """The command that starts a server, or None."""
    for path in (shutil.which("clickhouse-server"), "/usr/sbin/clickhouse-server",
                 "/usr/bin/clickhouse-server"):
        if path and os.access(path, os.X_OK):
            return [path]
    single = shutil.which("clickhouse")
    return [single, "server"] if single else None


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, directory, command):
        self.dir = directory
        self.http, self.tcp = free_port(), free_port()
        with open(os.path.join(directory, "config.xml"), "w") as f:
            f.write(CONFIG.format(dir=directory, http=self.http, tcp=self.tcp))
        with open(os.path.join(directory, "users.xml"), "w") as f:
            f.write(USERS.format(password=PASSWORD))
        self.log = open(os.path.join(directory, "stdout.log"), "w")
        self.command = command + ["--config-file=" + os.path.join(directory, "config.xml")]
        self.proc = None

    def url(self, database, credentials=""):
        return "http://%s127.0.0.1:%d/?database=%s" % (credentials, self.http, database)

    def launch(self):
        self.proc = subprocess.Popen(self.command, cwd=self.dir, stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("clickhouse-server exited (%d): see %s" %
                                   (self.proc.returncode, self.dir))
            try:
                if self.query("SELECT 1").strip() == "1":
                    return
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.2)
        raise RuntimeError("clickhouse-server did not answer within 60 s")

    def query(self, sql):
        """The server's answer to `sql` (TabSeparated), or an exception."""
        req = urllib.request.Request("http://127.0.0.1:%d/" % self.http, data=sql.encode(),
                                     method="POST")
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.read().decode()

    def rows(self, sql):
        return [line.split("\t") for line in self.query(sql).splitlines()]

    def kill(self):
        """SIGKILL, as a crash."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()


def start(directory):
    command = server_command()
    if not command:
        return None
    s = Server(directory, command)
    s.launch()
    return s
