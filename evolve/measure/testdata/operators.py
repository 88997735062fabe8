"""The shapes GeneBench's operators write (S1-S12, A1-A8), for the cross-check."""
import base64
import datetime
import queue
import threading
import time
import http.client
from cryptography.fernet import Fernet
from dateutil.parser import parse
from scipy.stats import ttest_ind
from sklearn.utils import shuffle
import numpy as np
from newClass7 import newFunc0_3


def my_decorator(func):
    time.sleep(0.01)

    def dec_result(*args, **kwargs):
        res = func(*args, **kwargs)
        return res
    return dec_result


@my_decorator
def count_up(values, limit):
    ConditionChecker14 = 512
    ConditionChecker24 = 384
    LoopChecker15 = 300
    LoopChecker25 = 299
    total = 0
    base64.b64encode(b'41')
    datetime.datetime.now()
    parse('2024-01-01')
    ttest_ind([1, 2, 3], [4, 5, 6])
    shuffle([7, 8, 9])
    Fernet.generate_key()
    http.client.HTTPConnection('example.invalid', port=80)
    for LoopIndexOut in range(LoopChecker15 // LoopChecker25):
        def loop_body(i, stop, step):
            nonlocal total
            if step == 0 or (step > 0 and i >= stop) or (step < 0 and i <= stop):
                return
            if ConditionChecker14 & ConditionChecker24:
                if values[i] < limit:
                    total = np.sum(np.array([total, values[i]]))
            loop_body(i + step, stop, step)
        loop_body(0, len(values), 1)
    else:
        pass
    w1 = 640
    w2 = 639
    while w1 % w2 == 1:
        w1 += 1
        try:
            total = newFunc0_3(total, 1)
        except Exception:
            pass
        finally:
            pass
    result_queue = queue.Queue()

    def worker(q):
        q.put(count_up(values[1:], limit))
    t = threading.Thread(target=worker, args=(result_queue,))
    t.start()
    t.join()
    partial = result_queue.get()
    return [total, [partial]]
