"""Where a release's two files are: `wordle-pipeline fetch SOURCE` names the bundle by a
release tag, an https URL or a local file, and its descriptor is found beside it by the
names `.ci/publish.py bundle` gives the pair (`wordle-artifacts-TAG.tar.zst`,
`datapackage-TAG.json`), which the release job attaches to the GitHub release TAG.

The project's GitHub repository is named in one place, the package's metadata:
`[project.urls] Repository` in pyproject.toml (read from the installed distribution, so a
wheel carries it). `WORDLE_RELEASES` overrides the release downloads' base URL, for a
mirror of the releases (and the tests' local server): the files of TAG are then
`$WORDLE_RELEASES/TAG/<name>`, as under `https://github.com/OWNER/NAME/releases/download`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from pipeline.core.errors import PipelineError
from pipeline.sources.spec import is_https

BUNDLE_PREFIX, BUNDLE_SUFFIX = "wordle-artifacts-", ".tar.zst"
DESCRIPTOR_PREFIX, DESCRIPTOR_SUFFIX = "datapackage-", ".json"
RELEASES_VARIABLE = "WORDLE_RELEASES"
DISTRIBUTION = "wordle-pipeline"
# The labels of [project.urls] that may name the repository, in the order they are tried.
REPOSITORY_LABELS = ("repository", "source", "source code", "code", "homepage")
# CI publishes a release for each tag v* (.github/workflows/artifacts.yml).
TAG = re.compile(r"v[0-9][0-9A-Za-z._+-]*")
GITHUB = re.compile(r"https://github\.com/([\w.-]+/[\w.-]+?)(?:\.git)?/?")


@dataclass(frozen=True)
class Origin:
    """A release's bundle and its descriptor: each a URL (`remote`) or a local path; a
    local bundle may have no descriptor beside it (None)."""

    bundle: str
    descriptor: str | None
    remote: bool

    @property
    def bundle_name(self) -> str:
        """The bundle's file name, which refusals name."""
        if self.remote:
            return unquote(urlsplit(self.bundle).path.rsplit("/", 1)[-1])
        return Path(self.bundle).name


def bundle_name(tag: str) -> str:
    return f"{BUNDLE_PREFIX}{tag}{BUNDLE_SUFFIX}"


def descriptor_name(tag: str) -> str:
    return f"{DESCRIPTOR_PREFIX}{tag}{DESCRIPTOR_SUFFIX}"


def tag_of(name: str) -> str | None:
    """The tag in a bundle's file name, None when the name is not a bundle's."""
    if name.startswith(BUNDLE_PREFIX) and name.endswith(BUNDLE_SUFFIX):
        tag = name[len(BUNDLE_PREFIX) : -len(BUNDLE_SUFFIX)]
        return tag or None
    return None


def resolve(source: str) -> Origin:
    """SOURCE as the two files to read. An https URL or an existing path is taken as
    itself; a release tag is looked up under the release downloads' base URL."""
    if source.lower().startswith("http://"):
        raise PipelineError(
            f"{source}: refused, a plain-http URL (the descriptor that checks the bundle "
            "would arrive unauthenticated too); use its https:// URL, or download the "
            "bundle and give its file"
        )
    if source.lower().startswith("https:"):
        return _from_url(source)
    path = Path(source)
    if path.exists() or "/" in source or source.endswith(BUNDLE_SUFFIX):
        return _from_file(path)
    if TAG.fullmatch(source):
        return from_tag(source, releases_base(source))
    raise PipelineError(
        f"SOURCE {source!r}: neither a release tag (such as v0.3.0), an https URL of a "
        "bundle, nor an existing file"
    )


def from_tag(tag: str, base: str) -> Origin:
    """The release TAG's files under the release downloads' base URL."""
    folder = f"{base.rstrip('/')}/{quote(tag, safe='')}"
    return Origin(f"{folder}/{bundle_name(tag)}", f"{folder}/{descriptor_name(tag)}", True)


def _from_url(url: str) -> Origin:
    """A bundle's URL and its descriptor's, the last segment of its path renamed."""
    if not is_https(url):
        raise PipelineError(f"{url}: not a well-formed https URL")
    parts = urlsplit(url)
    folder, _, name = parts.path.rpartition("/")
    tag = tag_of(unquote(name))
    if tag is None:
        raise PipelineError(
            f"{url}: its name is not {bundle_name('TAG')}, so its descriptor "
            f"{descriptor_name('TAG')} cannot be found beside it"
        )
    descriptor = parts._replace(path=f"{folder}/{quote(descriptor_name(tag))}", query="")
    return Origin(url, urlunsplit(descriptor), True)


def _from_file(path: Path) -> Origin:
    """A local bundle and the descriptor beside it, when its name gives the tag and that
    file is there."""
    if not path.is_file():
        raise PipelineError(f"{path}: no such file")
    tag = tag_of(path.name)
    beside = path.with_name(descriptor_name(tag)) if tag else None
    descriptor = str(beside) if beside is not None and beside.is_file() else None
    return Origin(str(path), descriptor, False)


def releases_base(tag: str) -> str:
    """The base URL of the release downloads: $WORDLE_RELEASES, else the repository's
    `releases/download` on GitHub, from the package metadata."""
    override = os.environ.get(RELEASES_VARIABLE, "").strip()
    if override:
        if not is_https(override):
            raise PipelineError(
                f"{RELEASES_VARIABLE}={override!r}: not a well-formed https URL; refused"
            )
        return override
    repository = repository_url()
    if repository is None:
        raise PipelineError(
            f"{tag}: no release repository is known (the installed {DISTRIBUTION} names no "
            f"GitHub URL in [project.urls]); give the bundle's https URL or file, or set "
            f"{RELEASES_VARIABLE}=https://github.com/OWNER/NAME/releases/download"
        )
    return f"{repository}/releases/download"


def repository_url() -> str | None:
    """https://github.com/OWNER/NAME from the installed distribution's Project-URL
    entries (pyproject.toml's [project.urls]), None when none names a GitHub repository."""
    from importlib import metadata

    try:
        entries = metadata.metadata(DISTRIBUTION).get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    urls = {}
    for entry in entries:
        label, _, url = entry.partition(",")
        urls.setdefault(label.strip().lower(), url.strip())
    for label in REPOSITORY_LABELS:
        match = GITHUB.fullmatch(urls.get(label, ""))
        if match:
            return f"https://github.com/{match.group(1)}"
    return None
