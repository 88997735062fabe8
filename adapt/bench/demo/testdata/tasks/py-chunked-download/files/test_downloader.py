import contextlib
import inspect
import io
import os
import tempfile
import unittest

import downloader


class RecordingStream(io.BytesIO):
    """A response stub that remembers the sizes it was asked to read."""

    def __init__(self, data):
        super().__init__(data)
        self.sizes = []

    def read(self, size=-1):
        self.sizes.append(size)
        return super().read(size)


class TestDownloadChunks(unittest.TestCase):
    def test_function_name(self):
        self.assertTrue(callable(getattr(downloader, "download_chunks", None)))

    def test_chunk_size_parameter(self):
        params = inspect.signature(downloader.download_chunks).parameters
        self.assertIn("chunk_size", params)
        self.assertEqual(params["chunk_size"].default, downloader.DEFAULT_CHUNK_SIZE)

    def test_reads_with_chunk_size(self):
        stream = RecordingStream(b"x" * 10)
        downloader.download_chunks(stream, io.BytesIO(), chunk_size=4)
        self.assertEqual(set(stream.sizes), {4})

    def test_no_stdout(self):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            downloader.download_chunks(io.BytesIO(b"abc" * 1000), io.BytesIO())
        self.assertEqual(buf.getvalue(), "")

    def test_returns_total(self):
        total = downloader.download_chunks(io.BytesIO(b"a" * 20000), io.BytesIO())
        self.assertEqual(total, 20000)

    def test_copies_all_bytes(self):
        data = bytes(range(256)) * 100
        out = io.BytesIO()
        downloader.download_chunks(io.BytesIO(data), out, 1000)
        self.assertEqual(out.getvalue(), data)

    def test_download_to_path(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "file.bin")
            self.assertEqual(downloader.download_to_path(io.BytesIO(b"hello"), path), 5)
            with open(path, "rb") as f:
                self.assertEqual(f.read(), b"hello")


if __name__ == "__main__":
    unittest.main()
