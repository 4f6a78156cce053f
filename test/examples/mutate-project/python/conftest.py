"""Starts `svc-cli platform` once for the test session, ten times faster than the wall
clock, delivering agent messages to the bridge. SVC_MUTANT in the environment reaches it,
so `svc-cli mutate` needs no change here. SVC_CLI names the command (default: the
svc-cli of this repository, run by node)."""
import json
import os
import shlex
import subprocess
import urllib.request
from pathlib import Path

import pytest

from bridge import Bridge

HERE = Path(__file__).resolve().parent
DEFAULT_CLI = ["node", str(HERE.parents[3] / "bin" / "svc-cli.js")]


class Platform:
    def __init__(self, listening):
        self.control_url = listening["controlUrl"]
        self.channel = listening["channels"][0]

    def control(self, path, body):
        """The platform's control API (svc-cli's docs/platform.md): agent actions."""
        request = urllib.request.Request(
            self.control_url + path,
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request) as response:
            return json.loads(response.read() or b"null")


@pytest.fixture(scope="session")
def bridge():
    bridge = Bridge()
    yield bridge
    bridge.close()


@pytest.fixture(scope="session")
def platform(bridge):
    cli = shlex.split(os.environ["SVC_CLI"]) if os.environ.get("SVC_CLI") else DEFAULT_CLI
    args = ["--json", "--time-scale", "0.1", "platform", "--quiet", "--port", "0"]
    args += ["--no-console", "--integrator-url", bridge.url]
    process = subprocess.Popen(
        cli + args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        listening = None
        for line in process.stdout:
            event = json.loads(line)
            if event.get("type") == "listening":
                listening = event
                break
        assert listening is not None, "svc-cli platform stopped before listening"
        platform = Platform(listening)
        bridge.channel_url = platform.channel["url"]
        bridge.status_url = platform.channel["statusUrl"]
        yield platform
    finally:
        process.terminate()
        process.wait(timeout=10)
