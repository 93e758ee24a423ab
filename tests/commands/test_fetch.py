"""`wordle-pipeline fetch`: a release bundle built the real way (`.ci/publish.py`'s
write_bundle over the fixture's artifact set, its descriptor copied beside it as the
bundle step does), served by a local HTTPS server laid out as GitHub's release downloads
(TAG/wordle-artifacts-TAG.tar.zst), fetched by tag, URL and file by the real command,
then verified by `wordle-pipeline verify` and asked by `wordle-assist`.

Then the refusals, each a bundle damaged as a hostile or careless server would: cut short,
foreign, altered, escaping its folder, of another version, or out of reach. Each is one
line on stderr and exit status 1, and leaves the folder it would have replaced as it was,
with nothing beside it. Tags reach the local server through WORDLE_RELEASES, the same
setting a mirror of the releases uses; the GitHub URL itself is checked without network.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import pipeline
from pipeline.artifacts.package_check import verify_datapackage
from pipeline.commands.fetch import locate, transfer
from pipeline.commands.fetch.install import fetch
from pipeline.core.errors import PipelineError
from tests.support.artifact_set import EDITION, shared_artifact_set
from tests.support.bad_bundles import (
    altered_copy,
    bundle_of,
    good_members,
    member,
    other_version,
    publish_module,
    zstd_tar,
)
from tests.support.bad_inputs import BUNDLE_CASES
from tests.support.servers import drip, respond, truncate

TAG = f"v{pipeline.__version__}"  # the release of the installed version
FETCH = [sys.executable, "-m", "pipeline.commands.pipeline_cli", "fetch"]
VERIFY = [sys.executable, "-m", "pipeline.commands.pipeline_cli", "verify"]
ASSIST = [sys.executable, "-m", "pipeline.commands.assistant"]


def write_release(folder: Path, releases: Path, tag: str) -> Path:
    """The release `tag` of the artifacts `folder`, as the bundle step writes it: the
    bundle by write_bundle and the descriptor's copy beside it. Its folder."""
    target = releases / tag
    target.mkdir(parents=True)
    publish_module().write_bundle(folder, target / locate.bundle_name(tag))
    shutil.copyfile(folder / "datapackage.json", target / locate.descriptor_name(tag))
    return target


def tree(folder: Path) -> dict[str, str]:
    """Every file under `folder` and the sha256 of its bytes."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def derived(tmp_path_factory) -> Path:
    """The fixture's data/derived (a shared set: read it, never change it)."""
    return shared_artifact_set(tmp_path_factory, "fixture").manifest.parent


@pytest.fixture(scope="module")
def releases(derived, tmp_path_factory) -> Path:
    """The folder the server serves: TAG/ holds the good release; tests add others."""
    root = tmp_path_factory.mktemp("releases")
    write_release(derived, root, TAG)
    return root


@pytest.fixture(scope="module")
def server(releases, tls) -> Iterator[str]:
    """An HTTPS server of `releases` on 127.0.0.1 (certificate of the test CA); its URL."""
    ctx, _ = tls

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # no request lines in the test output
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=releases))
    httpd.socket = ctx.wrap_socket(httpd.socket, server_side=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"https://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)


@pytest.fixture
def env(server, tls) -> dict[str, str]:
    """The commands' environment: the test CA trusted, no proxy, tags looked up on the
    local server, no WORDLE_DATA of the user's."""
    drop = {"WORDLE_DATA", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"}
    result = {key: value for key, value in os.environ.items() if key not in drop}
    result.update(
        REQUESTS_CA_BUNDLE=str(tls[1]),
        NO_PROXY="127.0.0.1,localhost",
        WORDLE_RELEASES=server,
    )
    return result


Run = Callable[..., subprocess.CompletedProcess]


@pytest.fixture
def run(env) -> Run:
    """Run a command in a folder: run(cwd, command..., env changes as keywords)."""

    def start(cwd: Path, *command: str, **changes: str) -> subprocess.CompletedProcess:
        cwd.mkdir(parents=True, exist_ok=True)
        return subprocess.run(
            list(command), cwd=cwd, env={**env, **changes}, capture_output=True, text=True,
            check=False, timeout=120,
        )  # fmt: skip

    return start


@pytest.fixture
def here(env, monkeypatch) -> None:
    """The same environment for fetch() called in this process (coverage sees it)."""
    for name in ("WORDLE_DATA", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    for name in ("REQUESTS_CA_BUNDLE", "NO_PROXY", "WORDLE_RELEASES"):
        monkeypatch.setenv(name, env[name])


def assert_fetched(result: subprocess.CompletedProcess, target: Path) -> None:
    """A success: one line on stdout, and the target holds a data package."""
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("fetched wordle-artifacts-")
    assert result.stdout.count("\n") == 1 and " unpacked into " in result.stdout
    assert "Traceback" not in result.stderr
    assert (target / "datapackage.json").is_file()


def assert_verifies(run: Run, folder: Path) -> None:
    result = run(folder, *VERIFY, str(folder / "datapackage.json"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("all match, and nothing else is there\n")


def no_leftovers(parent: Path) -> list[str]:
    """Work folders a fetch left beside its target."""
    return [path.name for path in parent.iterdir() if ".fetch-" in path.name]


def test_a_tag_is_fetched_where_the_assistant_reads_verified_and_answered(run, tmp_path):
    """A fresh folder with nothing in it: `fetch TAG`, then `wordle-assist` with no
    option answers from ./data/derived."""
    home = tmp_path / "fresh"
    result = run(home, *FETCH, TAG)
    assert_fetched(result, home / "data" / "derived")
    assert result.stdout.endswith(f"unpacked into data/derived (editions: {EDITION})\n")
    assert result.stderr.count("\n") == 2  # the two downloads, each an INFO line
    assert_verifies(run, home / "data" / "derived")
    answer = run(home, *ASSIST, "heath", "BBYBB", "--top", "3")
    assert answer.returncode == 0, answer.stderr
    lines = answer.stdout.splitlines()
    assert lines[0].startswith(f"edition: {EDITION}: ")
    assert "3 of 8 answers remain: 1.58 bits" in lines
    assert "remaining: cigar, mamma, naval" in lines
    again = run(home, *FETCH, TAG)  # the same release: nothing to do
    assert again.returncode == 0 and again.stdout == (
        "data/derived already holds this release, verified; nothing to do\n"
    )
    assert no_leftovers(home / "data") == []


def test_a_url_and_a_file_are_fetched_into_the_folder_given(
    here, run, server, releases, tmp_path, caplog
):  # fmt: skip
    url = f"{server}/{TAG}/{locate.bundle_name(TAG)}"
    assert f"unpacked into {tmp_path / 'by-url'} " in fetch(url, tmp_path / "by-url")
    bundle = releases / TAG / locate.bundle_name(TAG)
    line = fetch(str(bundle), tmp_path / "by-file")
    assert f"checked against {locate.descriptor_name(TAG)}, " in line
    alone = tmp_path / "alone" / bundle.name  # no descriptor beside it: a warning
    alone.parent.mkdir()
    shutil.copyfile(bundle, alone)
    assert "checked against its own datapackage.json" in fetch(str(alone), tmp_path / "lone")
    assert [r.levelname for r in caplog.records].count("WARNING") == 1
    assert tree(tmp_path / "by-url") == tree(tmp_path / "by-file") == tree(tmp_path / "lone")
    assert_verifies(run, tmp_path / "by-url")
    answer = run(tmp_path, *ASSIST, "--data", "by-url", "heath", "BBYBB")
    assert answer.returncode == 0 and "remaining: cigar, mamma, naval" in answer.stdout


def test_a_folder_of_artifacts_is_replaced_only_with_force(run, derived, tmp_path):
    target = tmp_path / "data" / "derived"
    shutil.copytree(derived, target)
    (target / "mine.txt").write_text("a build of my own\n")
    before = tree(target)
    refused = run(tmp_path, *FETCH, TAG)
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.splitlines()[-1] == (
        "ERROR: data/derived: already holds artifacts; --force replaces them (the old "
        "folder is removed only once the new one is checked and in place)"
    )
    assert tree(target) == before
    replaced = run(tmp_path, *FETCH, TAG, "--force")
    assert_fetched(replaced, target)
    assert not (target / "mine.txt").exists()
    assert_verifies(run, target)
    assert no_leftovers(target.parent) == []


def test_a_checkouts_empty_folder_is_filled_and_keeps_its_gitkeep(here, tmp_path):
    target = tmp_path / "data" / "derived"
    target.mkdir(parents=True)
    (target / ".gitkeep").touch()
    assert fetch(TAG, target).startswith(f"fetched {locate.bundle_name(TAG)}: ")
    assert (target / ".gitkeep").is_file()
    assert verify_datapackage(target / "datapackage.json") == []


def test_a_symlinked_folder_stays_a_link_to_the_fetched_artifacts(here, tmp_path):
    """data/derived as a link to a larger disk: the link is kept, the folder it names
    filled (the work folder sits beside that one, on its file system)."""
    elsewhere = tmp_path / "disk" / "wordle"
    elsewhere.mkdir(parents=True)
    link = tmp_path / "home" / "data" / "derived"
    link.parent.mkdir(parents=True)
    link.symlink_to(elsewhere)
    assert f"unpacked into {elsewhere} " in fetch(TAG, link)
    assert link.is_symlink() and verify_datapackage(link / "datapackage.json") == []
    assert no_leftovers(elsewhere.parent) == []


def test_the_command_line_prints_one_line_or_exits_2(here, tmp_path, capsys):
    from pipeline.commands.pipeline_cli import main

    assert main(["fetch", TAG, "--into", str(tmp_path / "here")]) == 0
    assert capsys.readouterr().out.startswith(f"fetched {locate.bundle_name(TAG)}: ")
    with pytest.raises(SystemExit) as stopped:
        main(["fetch"])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert error.startswith("wordle-pipeline fetch: error: the following arguments")


# --- refusals (the bundles of the bad-input catalogue, tests.support.bad_inputs) -------


@pytest.mark.parametrize("case", list(BUNDLE_CASES))
def test_a_bad_bundle_is_refused_and_changes_nothing(case, here, derived, releases, tmp_path):
    """Served as the release `v0-<case>`, fetched with --force over a folder of other
    artifacts: the folder is as it was afterwards, and nothing is beside it."""
    make, words = BUNDLE_CASES[case]
    tag = "v0-" + "".join(c for c in case.replace(" ", "-") if c.isalnum() or c == "-")
    scratch = tmp_path / "scratch"
    data = make(releases / TAG / locate.bundle_name(TAG), derived, scratch)
    folder = releases / tag
    folder.mkdir()
    (folder / locate.bundle_name(tag)).write_bytes(data)
    descriptor = (scratch if scratch.is_dir() else derived) / "datapackage.json"
    shutil.copyfile(descriptor, folder / locate.descriptor_name(tag))
    target = tmp_path / "home" / "data" / "derived"
    shutil.copytree(derived, target)
    (target / "mine.txt").write_text("not this release\n")
    before = tree(target)
    with pytest.raises(PipelineError) as refused:
        fetch(tag, target, force=True)
    assert words in str(refused.value) and tag in str(refused.value)  # it names the file
    assert "\n" not in str(refused.value)
    assert tree(target) == before
    assert no_leftovers(target.parent) == []
    assert not (target.parent / "x").exists() and not (tmp_path / "x").exists()


def test_a_refused_fetch_is_one_line_and_leaves_no_folder_it_made(run, derived, releases, tmp_path):
    """The command itself, into a folder that does not exist: one line on stderr after
    the downloads, exit status 1, and neither the folder nor its parents remain."""
    tag = "v0-escaping-into-nothing"
    (releases / tag).mkdir()
    good = releases / TAG / locate.bundle_name(TAG)
    bundle = zstd_tar([*good_members(good, 3), member("../../x")])
    (releases / tag / locate.bundle_name(tag)).write_bytes(bundle)
    shutil.copyfile(derived / "datapackage.json", releases / tag / locate.descriptor_name(tag))
    result = run(tmp_path / "home", *FETCH, tag)
    assert result.returncode == 1 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert [line.split(" ", 1)[0] for line in lines] == ["INFO:", "INFO:", "ERROR:"]
    assert lines[-1] == (
        f"ERROR: {locate.bundle_name(tag)}: member '../../x' points outside the folder it "
        "unpacks into; refused"
    )
    assert list((tmp_path / "home").iterdir()) == []


def test_a_full_disk_is_one_line_and_changes_nothing(run, derived, tmp_path):
    """A real limit on file size (bash's `ulimit -f`, 100 kB): the 400 kB bundle cannot be
    written beside the folder; Python ignores SIGXFSZ, so the write fails (EFBIG)."""
    target = tmp_path / "data" / "derived"
    shutil.copytree(derived, target)
    (target / "mine.txt").write_text("not this release\n")
    before = tree(target)
    limited = ["bash", "-c", 'ulimit -f 100 && exec "$@"', "bash", *FETCH, TAG, "--force"]
    result = run(tmp_path, *limited)
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == (
        "ERROR: data/derived: cannot unpack there (File too large); it was left as it was"
    )
    assert tree(target) == before and no_leftovers(target.parent) == []


def test_another_version_is_taken_with_any_version_and_a_warning(
    here, derived, releases, tmp_path, caplog
):  # fmt: skip
    tag = "v0.0.1"
    bundle_of(altered_copy(derived, tmp_path / "old", other_version))
    folder = releases / tag
    folder.mkdir()
    shutil.copyfile(tmp_path / "old.tar.zst", folder / locate.bundle_name(tag))
    shutil.copyfile(tmp_path / "old" / "datapackage.json", folder / locate.descriptor_name(tag))
    line = fetch(tag, tmp_path / "home", any_version=True)
    assert line.startswith(f"fetched {locate.bundle_name(tag)}: ")
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and warnings[0].endswith("taken anyway (--any-version)")
    assert "artifacts of wordle-pipeline 0.0.1, but" in warnings[0]


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize(
    ("source", "releases_url", "words"),
    [
        ("v9.9.9", None, ("datapackage-v9.9.9.json: not found (HTTP 404): no such release",)),
        (TAG, "https://127.0.0.1:{port}", ("in 3 attempt(s)", "Connection refused")),
        ("http://127.0.0.1/wordle-artifacts-v1.tar.zst", None, ("refused, a plain-http URL",)),
        ("https://127.0.0.1/bundle.tar.zst", None, ("its name is not wordle-artifacts-TAG",)),
        ("no-such-file.tar.zst", None, ("no-such-file.tar.zst: no such file",)),
        ("latest", None, ("neither a release tag",)),
    ],
)
def test_an_unreachable_or_unknown_source_is_one_line(
    here, tmp_path, monkeypatch, source, releases_url, words
):  # fmt: skip
    if releases_url:
        monkeypatch.setenv("WORDLE_RELEASES", releases_url.format(port=closed_port()))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PipelineError) as refused:
        fetch(source, tmp_path / "home" / "data" / "derived")
    assert all(word in str(refused.value) for word in words), refused.value
    assert "\n" not in str(refused.value)
    assert sorted(path.name for path in tmp_path.iterdir()) == []


def test_a_tag_resolves_to_the_github_release_assets_of_the_repository(monkeypatch):
    """No network: the URLs a tag gives, from the package metadata's repository."""
    monkeypatch.delenv(locate.RELEASES_VARIABLE, raising=False)
    monkeypatch.setattr(locate, "repository_url", lambda: "https://github.com/owner/name")
    origin = locate.resolve("v0.3.0")
    assert origin == locate.Origin(
        "https://github.com/owner/name/releases/download/v0.3.0/wordle-artifacts-v0.3.0.tar.zst",
        "https://github.com/owner/name/releases/download/v0.3.0/datapackage-v0.3.0.json",
        True,
    )
    monkeypatch.setattr(locate, "repository_url", lambda: None)
    with pytest.raises(PipelineError, match="no release repository"):
        locate.resolve("v0.3.0")


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        (["Repository, https://github.com/owner/name"], "https://github.com/owner/name"),
        (["Homepage, https://example.org", "Source, https://github.com/o/n.git"],
         "https://github.com/o/n"),
        (["Homepage, https://example.org/github.com/a/b"], None),
        ([], None),
    ],
)  # fmt: skip
def test_the_repository_is_read_from_the_project_urls(monkeypatch, entries, expected):
    class Metadata:
        def get_all(self, key: str):
            return entries if key == "Project-URL" else None

    monkeypatch.setattr("importlib.metadata.metadata", lambda name: Metadata())
    assert locate.repository_url() == expected


# --- the download itself, in process (tests/support/servers.py's misbehaving servers) ----


def test_a_body_cut_short_is_tried_again_then_one_line(https_server, tmp_path):
    server = https_server([truncate])
    with pytest.raises(PipelineError) as refused:
        transfer.download(server.url, tmp_path / "file", sleep=lambda _seconds: None)
    assert server.attempts == transfer.RETRIES + 1
    assert "could not be downloaded in 3 attempt(s)" in str(refused.value)
    assert "IncompleteRead" in str(refused.value)


def test_a_redirect_to_plain_http_is_refused_before_it_is_requested(
    https_server, plain_listener, tmp_path
):  # fmt: skip
    location = f"Location: http://127.0.0.1:{plain_listener.port}/bundle"
    server = https_server([respond("302 Found", b"", (location,))])
    with pytest.raises(PipelineError, match="redirected to non-https"):
        transfer.download(server.url, tmp_path / "file")
    assert plain_listener.connections == 0


def test_a_redirect_to_https_is_followed(https_server, tmp_path):
    target = https_server([respond("200 OK", b"the bundle")])
    server = https_server([respond("302 Found", b"", (f"Location: {target.url}",))])
    assert transfer.download(server.url, tmp_path / "file") == len(b"the bundle")
    assert (tmp_path / "file").read_bytes() == b"the bundle"


def test_a_dripping_server_meets_the_deadline(https_server, tmp_path, monkeypatch):
    monkeypatch.setattr(transfer, "DEADLINE", 1.0)
    server = https_server([drip])
    with pytest.raises(PipelineError, match="took longer than 1 s"):
        transfer.download(server.url, tmp_path / "file")
