"""Tests that hit the suite's limits; the driver tests select them by name."""
import os
import time
import unittest


class TestLimits(unittest.TestCase):
    def test_a_quick(self):
        pass

    def test_b_hang(self):
        while True:
            time.sleep(60)

    def test_c_hog(self):
        chunks = []
        while True:
            chunks.append(bytearray(16 << 20))

    def test_d_exit(self):
        os._exit(3)

    def test_e_stubborn(self):
        # Catches the per-test timeout and goes on sleeping.
        while True:
            try:
                time.sleep(60)
            except BaseException:
                pass

    def test_z_last(self):
        pass
