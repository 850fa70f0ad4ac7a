"""A copied table on the LAN of namespaces (issue 31, SPEC 8.7): Ann hosts her table on one
laptop; on another, someone opens a table of the same name under the same host name. A player
on a third laptop who joins without the code sees both listed, each with its host's
fingerprint (different: names prove nothing), and a warning in words; a bot, with nobody to
ask, joins neither (exit 16) and says to use the join code."""

from __future__ import annotations

import re
from pathlib import Path

from lan import Lan
from willow import ENV, WILLOW, host

DEADLINE = 60.0
HOSTING = re.compile(r"^you host as Ann \(normal\) #([A-Z2-7]{4})")
LISTED = re.compile(r"^  \d\. \"Ann's table\" hosted by (Ann \(normal\) #[A-Z2-7]{4}) at ")


def test_two_tables_of_one_name_are_listed_apart_and_warned_of(lan: Lan, tmp_path: Path) -> None:
    ann, copier, player = (lan.add_laptop() for _ in range(3))
    for side in ("real", "copy"):
        (tmp_path / side).mkdir()
    real, _ = host(ann, tmp_path / "real", hands=3, seats=3)
    copy, _ = host(copier, tmp_path / "copy", hands=3, seats=3)
    hosting = [proc.expect(HOSTING.pattern, DEADLINE) for proc in (real, copy)]
    fingerprints = {m.group(1) for m in map(HOSTING.match, hosting) if m is not None}
    assert len(fingerprints) == 2, "two keys, two fingerprints"
    looking = player.run(
        [*WILLOW, "bot", "--home", str(tmp_path / "player"), "--timeout", "3"],
        name="player",
        env=ENV,
    )
    looking.expect(r"^found 2 tables:$", DEADLINE)
    listed = [looking.expect(LISTED.pattern, DEADLINE) for _ in range(2)]
    shown = {m.group(1) for m in map(LISTED.match, listed) if m is not None}
    assert {s.rsplit("#", 1)[1] for s in shown} == fingerprints
    warning = looking.expect(r"^warning: 2 tables are called ", DEADLINE)
    assert "a name proves nothing" in warning
    assert "ask your host which fingerprint is theirs, or for the join code" in warning
    looking.popen.wait(timeout=DEADLINE)
    assert looking.popen.returncode == 16
    assert "give the join code" in looking.output()
