"""A private Dovecot IMAP server for tests: a configuration written in a temporary directory,
on a free loopback port, with one passwd-file user and Maildir storage. Nothing of the
machine's own Dovecot set-up is used (no system service, no /etc/dovecot).

``ROSES_REQUIRE_IMAP=1`` (CI) turns a missing Dovecot into a failure instead of a skip.
"""

from __future__ import annotations

import imaplib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"


@dataclass
class ImapServer:
    host: str
    port: int
    user: str
    password: str
    mailbox: str = "INBOX"
    log_path: Path | None = None

    def connect(self) -> imaplib.IMAP4:
        imap = imaplib.IMAP4(self.host, self.port)
        imap.login(self.user, self.password)
        return imap

    def deliver(self, raw: bytes) -> None:
        """Put a message in the mailbox, as a mail server delivering it would (IMAP APPEND)."""
        imap = self.connect()
        try:
            typ, _ = imap.append(self.mailbox, "", imaplib.Time2Internaldate(time.time()), raw)
            assert typ == "OK"
        finally:
            imap.logout()

    def flags(self) -> list[str]:
        imap = self.connect()
        try:
            imap.select(self.mailbox)
            typ, data = imap.fetch("1:*", "(FLAGS)")
            return [d.decode() for d in data if isinstance(d, bytes)]
        finally:
            imap.logout()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _missing(message: str) -> None:
    if os.environ.get("ROSES_REQUIRE_IMAP") == "1":
        pytest.fail(f"ROSES_REQUIRE_IMAP=1 but {message}", pytrace=False)
    pytest.skip(message)


def run_dovecot() -> Iterator[ImapServer]:
    if not Path(DOVECOT).exists():
        _missing("Dovecot is not installed (Debian: apt-get install dovecot-imapd)")
        return
    import getpass
    import grp
    import pwd

    me = getpass.getuser()
    group = grp.getgrgid(pwd.getpwnam(me).pw_gid).gr_name
    login_user = internal_user = me
    if os.getuid() == 0:  # Dovecot's login processes refuse to run as root: the package's users
        try:
            login_user, internal_user = pwd.getpwnam("dovenull").pw_name, pwd.getpwnam("dovecot").pw_name
            group = grp.getgrgid(pwd.getpwnam("dovecot").pw_gid).gr_name
        except KeyError:
            _missing("Dovecot's users (dovenull, dovecot) do not exist")
            return
    port = _free_port()
    user, password = "orders", "orders-test-password"
    # everything in a directory the unprivileged auth and login processes can reach (pytest's
    # temporary directories are private to their owner)
    run_dir = Path(tempfile.mkdtemp(prefix="roses-dovecot-"))
    run_dir.chmod(0o755)
    base = run_dir
    (base / "run").mkdir()
    (base / "mail").mkdir()
    uid, gid = os.getuid(), os.getgid()
    if uid == 0:  # no mail as root: the mailbox belongs to Dovecot's own user
        uid, gid = pwd.getpwnam(internal_user).pw_uid, pwd.getpwnam(internal_user).pw_gid
        os.chown(base / "mail", uid, gid)
    (base / "passwd").write_text(f"{user}:{{PLAIN}}{password}:{uid}:{gid}::{base / 'mail'}\n")
    conf = base / "dovecot.conf"
    conf.write_text(f"""
base_dir = {base / 'run'}
state_dir = {base / 'run'}
instance_name = roses-test-{port}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain
log_path = {base / 'dovecot.log'}
default_login_user = {login_user}
default_internal_user = {internal_user}
default_internal_group = {group}
mail_location = maildir:{base / 'mail'}/Maildir
first_valid_uid = 1
first_valid_gid = 1
passdb {{
  driver = passwd-file
  args = {base / 'passwd'}
}}
userdb {{
  driver = passwd-file
  args = {base / 'passwd'}
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
""")
    proc = subprocess.Popen([DOVECOT, "-F", "-c", str(conf)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    server = ImapServer("127.0.0.1", port, user, password, log_path=base / "dovecot.log")
    try:
        deadline = time.time() + 20
        while True:
            try:
                server.connect().logout()
                break
            except (OSError, imaplib.IMAP4.abort):
                if proc.poll() is not None or time.time() > deadline:
                    out = proc.stdout.read().decode("utf-8", "replace") if proc.stdout else ""
                    log = (base / "dovecot.log").read_text() if (base / "dovecot.log").exists() else ""
                    pytest.fail(f"the test Dovecot did not start: {out} {log}")
                time.sleep(0.1)
        yield server
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(run_dir, ignore_errors=True)
