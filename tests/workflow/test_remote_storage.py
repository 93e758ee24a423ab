"""Remote storage: the whole workflow on the fixture with an S3 bucket as default storage.

A local S3-compatible server (moto's server mode, on 127.0.0.1 and a free port) holds the
bucket. Snakemake's S3 storage plugin keeps every input and output there and stages them
in and out of each job; the artifacts in the bucket must equal a local run's byte for
byte, and a second run must find nothing to do.
"""

from __future__ import annotations

import hashlib
import select
import subprocess
import sys
import time

import boto3
import pytest

from tests.support.workflow_helpers import derived_digests, make_checkout, snakemake

BUCKET = "wordle-artifacts"
PREFIX = "runs/fixture"
KEY = "testing"  # moto accepts any credentials
SERVER_START = 60  # seconds: moto starts in about 2


# moto's server in a process of its own, so that the coverage pass (`--cov` traces every
# thread of the test process) does not trace its handling of the run's thousands of requests.
MOTO = (
    "import logging, sys\n"
    "from moto.server import ThreadedMotoServer\n"
    "logging.getLogger('werkzeug').setLevel(logging.ERROR)  # no line per request\n"
    "server = ThreadedMotoServer(ip_address='127.0.0.1', port=0, verbose=False)\n"
    "server.start()\n"
    "print('http://%s:%d' % server.get_host_and_port(), flush=True)\n"
    "sys.stdin.read()  # until the test closes it\n"
    "server.stop()\n"
)


@pytest.fixture
def s3_endpoint():
    """The URL of a fresh S3 server on 127.0.0.1 (in a process of its own, on a free port)."""
    server = subprocess.Popen(
        [sys.executable, "-c", MOTO], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        yield first_line(server, SERVER_START)
    finally:
        server.stdin.close()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def first_line(process: subprocess.Popen, timeout: float) -> str:
    """The first line `process` prints, or an error naming the server when none comes
    within `timeout` seconds (a server that hangs at start must not hang the run)."""
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    if not ready:
        raise TimeoutError(f"the moto S3 server printed no address within {timeout:.0f} s")
    line = process.stdout.readline().strip()
    if not line:
        raise RuntimeError(f"the moto S3 server exited at start (code {process.poll()})")
    return line


def s3_client(endpoint: str):
    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id=KEY,
        aws_secret_access_key=KEY,
        region_name="us-east-1",
    )


def storage_args(endpoint: str) -> list[str]:
    """The command-line flags of docs/operating.md for keeping everything in the bucket."""
    return [
        "--default-storage-provider",
        "s3",
        "--default-storage-prefix",
        f"s3://{BUCKET}/{PREFIX}",
        "--storage-s3-endpoint-url",
        endpoint,
        "--storage-s3-access-key",
        KEY,
        "--storage-s3-secret-key",
        KEY,
    ]


def bucket_digests(client, prefix: str) -> dict[str, str]:
    """Key below `prefix` -> sha256 of every object stored there."""
    digests = {}
    for page in client.get_paginator("list_objects_v2").paginate(Bucket=BUCKET, Prefix=prefix):
        for item in page.get("Contents", []):
            body = client.get_object(Bucket=BUCKET, Key=item["Key"])["Body"].read()
            digests[item["Key"].removeprefix(prefix)] = hashlib.sha256(body).hexdigest()
    return digests


def test_s3_default_storage_gives_a_local_runs_artifacts(built_checkout, tmp_path, s3_endpoint):
    expected = derived_digests(built_checkout)
    assert "datapackage.json" in expected

    client = s3_client(s3_endpoint)
    client.create_bucket(Bucket=BUCKET)
    remote = make_checkout(tmp_path / "remote")
    started = time.monotonic()
    snakemake(remote, *storage_args(s3_endpoint), timeout=1200)
    remote_seconds = time.monotonic() - started

    assert bucket_digests(client, f"{PREFIX}/data/derived/") == expected
    # Everything went to the bucket: no artifact was left in the working directory.
    assert not (remote / "data" / "derived").exists()

    started = time.monotonic()
    again = snakemake(remote, *storage_args(s3_endpoint), timeout=600)
    print(f"S3 run {remote_seconds:.0f} s; second S3 run {time.monotonic() - started:.0f} s")
    assert "Nothing to be done" in again.stdout + again.stderr, again.stderr[-3000:]
