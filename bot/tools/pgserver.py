"""A throwaway PostgreSQL server for the tests and the bench: initdb and pg_ctl (from PATH or
/usr/lib/postgresql/*/bin) into a temporary folder, listening only on a unix socket inside that
folder (never on any network address), stopped and deleted afterwards.

initdb refuses to run as root: as root, the server runs as the `postgres` user (or `nobody`)
through runuser; the folder is handed to that user.
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

INSTALL_HINT = "no PostgreSQL server found (initdb, pg_ctl); install it with `apt-get install postgresql`"
PORT = 5432  # only names the socket file (.s.PGSQL.5432) inside our own folder: no TCP port is opened


class NoServer(Exception):
    """No PostgreSQL server programs on this machine (str(): how to install them)."""


def find_program(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0,
    )
    return candidates[-1] if candidates else None


def _run_as() -> list[str]:
    if os.geteuid() != 0:
        return []
    for user in ("postgres", "nobody"):
        try:
            pwd.getpwnam(user)
        except KeyError:
            continue
        runuser = shutil.which("runuser")
        if runuser:
            return [runuser, "-u", user, "--"]
        return [shutil.which("su") or "su", user, "-s", "/bin/sh", "-c"]  # pragma: no cover
    raise NoServer("running as root and no unprivileged user (postgres, nobody) to run PostgreSQL as")


class Server:
    def __init__(self, settings: dict[str, str] | None = None) -> None:
        initdb, pg_ctl = find_program("initdb"), find_program("pg_ctl")
        if not initdb or not pg_ctl:
            raise NoServer(INSTALL_HINT)
        self.pg_ctl = pg_ctl
        self.prefix = _run_as()
        self.folder = Path(tempfile.mkdtemp(prefix="pg-"))  # short: a socket path has a length limit
        self.data = self.folder / "data"
        self._names = itertools.count(1)
        self.running = False
        if self.prefix:
            user = self.prefix[2] if self.prefix[0].endswith("runuser") else self.prefix[1]
            entry = pwd.getpwnam(user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self._call(
            [
                initdb,
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
                "--no-instructions",
            ]
        )
        options = {
            "listen_addresses": "''",
            "unix_socket_directories": str(self.folder),
            "port": str(PORT),
            **(settings or {}),
        }
        self._call(
            [
                pg_ctl,
                "-D",
                str(self.data),
                "-l",
                str(self.folder / "log"),
                "-w",
                "-t",
                "60",
                "-o",
                " ".join(f"-c {k}={v}" for k, v in options.items()),
                "start",
            ]
        )
        self.running = True

    def _call(self, argv: list[str]) -> None:
        if self.prefix and not self.prefix[0].endswith("runuser"):  # su -c takes one command line
            import shlex

            argv = [*self.prefix, " ".join(shlex.quote(a) for a in argv)]
        else:
            argv = [*self.prefix, *argv]
        done = subprocess.run(argv, capture_output=True, text=True, cwd=self.folder, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed: {(done.stderr or done.stdout).strip()[-500:]}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.folder}&port={PORT}"

    async def new_database(self, prefix: str = "t") -> str:
        """A fresh empty database on this server; its URL."""
        import asyncpg

        name = f"{prefix}{os.getpid()}_{next(self._names)}"
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self.url(name)

    def stop(self) -> None:
        if self.running:
            self.running = False
            try:
                self._call([self.pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop"])
            except Exception:
                pass
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# Fast and not durable: a test server's data is thrown away anyway.
TEST_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off", "max_connections": "200"}
_shared: Server | None = None
_failed: str | None = None


def shared_server() -> Server:
    """One server for the whole test process, started on first use, stopped when the process
    exits. Raises NoServer (where none is installed) or RuntimeError (it would not start)."""
    global _shared, _failed
    if _failed is not None:
        raise NoServer(_failed)
    if _shared is None:
        try:
            _shared = Server(TEST_SETTINGS)
        except NoServer as err:
            _failed = str(err)
            raise
        atexit.register(_shared.stop)
    return _shared
