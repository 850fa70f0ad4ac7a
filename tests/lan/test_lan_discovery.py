"""Discovery on a LAN of namespaces (SPEC 8.7): a standard mDNS client (Avahi's avahi-browse)
and python-zeroconf's browser in another process both see a table advertised on another
laptop. Multicast stays inside the namespaces."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from lan import Lan

from p2pwillow.net.discovery import JoinCode
from p2pwillow.net.keys import KeyStatement

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ENV = {"PYTHONPATH": str(ROOT)}
TABLE = "Friday night"
PORT = 47100

DBUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
  </policy>
</busconfig>
"""

AVAHI_CONFIG = """[server]
use-ipv4=yes
use-ipv6=no
allow-interfaces=eth0
enable-dbus=yes
[publish]
disable-publishing=yes
"""


def _advertise(lan: Lan) -> tuple[str, str]:
    host = lan.add_laptop()
    proc = host.run(
        [sys.executable, str(HERE / "advertise.py"), host.address, str(PORT), TABLE],
        name="advertiser",
        env=ENV,
    )
    key: str = json.loads(proc.expect('"advertised"', 30))["key"]
    return host.address, key


def test_python_zeroconf_in_another_process_sees_the_table(lan: Lan) -> None:
    address, key = _advertise(lan)
    guest = lan.add_laptop()
    proc = guest.run(
        [sys.executable, str(HERE / "browse.py"), guest.address, "3"], name="browser", env=ENV
    )
    found = json.loads(proc.expect('"browsed"', 30))
    assert found["errors"] == []
    [table] = found["tables"]
    assert table["name"] == TABLE and table["free"] == 3 and table["key"] == key
    assert table["addresses"] == [address] and table["port"] == PORT
    code = JoinCode.decode(table["join_code"])
    assert (code.host, code.port) == (address, PORT)
    said = KeyStatement(*(bytes.fromhex(table[k]) for k in ("id", "key", "sig")))
    assert code.names(said), "the code names the keys the record advertises"


@pytest.mark.skipif(
    not all(shutil.which(t) for t in ("avahi-browse", "avahi-daemon", "dbus-daemon")),
    reason="avahi-utils, avahi-daemon and dbus are not installed (.ci/run installs them)",
)
def test_avahi_browse_sees_the_table(lan: Lan, tmp_path: Path) -> None:
    address, key = _advertise(lan)
    guest = lan.add_laptop()
    socket = tmp_path / "bus"
    (tmp_path / "dbus.conf").write_text(DBUS_CONFIG.format(socket=socket))
    (tmp_path / "avahi.conf").write_text(AVAHI_CONFIG)
    bus = {"DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={socket}"}
    dbus = guest.run(
        ["dbus-daemon", f"--config-file={tmp_path / 'dbus.conf'}", "--nofork", "--print-address"],
        name="dbus",
    )
    dbus.expect("unix:path=", 20)
    # avahi-daemon keeps its pid file in /run/avahi-daemon: a private tmpfs there (this
    # process's own mount namespace) so that runs side by side do not see each other's
    script = (
        "mkdir -p /run/avahi-daemon && mount -t tmpfs tmpfs /run/avahi-daemon && "
        f"exec avahi-daemon -f {tmp_path / 'avahi.conf'} --no-drop-root --no-chroot "
        "--no-rlimits --no-proc-title"
    )
    avahi = guest.run(["sh", "-c", script], name="avahi-daemon", env=bus)
    avahi.expect("Server startup complete", 20)
    browser = guest.run(["avahi-browse", "-rp", "_willow._tcp"], name="avahi-browse", env=bus)
    line = browser.expect(lambda line: line.startswith("=;") and key in line, 20)
    fields = line.split(";")
    assert fields[7] == address and fields[8] == str(PORT)
    txt = fields[9]
    assert f'"name={TABLE}"' in txt and '"v=1"' in txt and '"free=3"' in txt
