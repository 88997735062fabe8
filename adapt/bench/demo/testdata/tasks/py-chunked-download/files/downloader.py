"""Copy a download (any object with a read(n) method) into a file."""

import logging

DEFAULT_CHUNK_SIZE = 8192

logger = logging.getLogger(__name__)


def download_chunks(stream, out, chunk_size=DEFAULT_CHUNK_SIZE):
    total = 0
    while True:
        chunk = stream.read(chunk_size)
        if not chunk:
            break
        out.write(chunk)
        total += len(chunk)
    return total


def download_to_path(stream, path, chunk_size=DEFAULT_CHUNK_SIZE):
    with open(path, "wb") as out:
        total = download_chunks(stream, out, chunk_size)
    logger.info("downloaded %d bytes to %s", total, path)
    return total
