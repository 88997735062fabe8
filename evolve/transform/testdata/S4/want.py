import queue
import threading


def checked_double(x):
    if x < 0:
        raise ValueError("negative: %d" % x)
    return 2 * x


def apply(x, offset=1):
    queue_checked_double0 = queue.Queue()
    def checked_double_thread0(queue_arg):
        try:
            queue_arg.put((True, checked_double(x + offset)))
        except BaseException as exc:
            queue_arg.put((False, exc))
    thread_checked_double0 = threading.Thread(target=checked_double_thread0, args=(queue_checked_double0,))
    thread_checked_double0.start()
    thread_checked_double0.join()
    ok_checked_double0, result_checked_double0 = queue_checked_double0.get()
    if not ok_checked_double0:
        raise result_checked_double0
    y = result_checked_double0
    return y + 1
