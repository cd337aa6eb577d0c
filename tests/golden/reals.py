def chunk(_):
    try:
        def make2():
            def run(x):
                try:
                    if type(x) is float:
                        t1 = x - 3
                        t2 = (t1 ** 2) if (-10000.0 < t1 < 10000.0) else V7(t1, 2)
                        t3 = t2 + 1
                        return t3
                    t4 = (x - 3) if (type(x) is int or type(x) is float) else V9(x, 3)
                    t5 = (t4 ** 2) if (type(t4) is int or type(t4) is float) and (-10000.0 < t4 < 10000.0) else V10(t4, 2)
                    t6 = (t5 + 1) if (type(t5) is int or type(t5) is float) else V11(t5, 1)
                    return t6
                except BaseException as e:
                    raise FAIL(e, W, self_)
            def whole12(x):
                try:
                    t1 = V13(x, 3)
                    t2 = V14(t1, 2)
                    t3 = V15(t2, 1)
                    return WHOLE_RESULT(t3, x)
                except Exception:
                    return None
            def whole16(x, caller=None):
                try:
                    t1 = None if caller is not None else whole12(x)
                    if t1 is not None: return t1
                    if caller is not None: return BATCH_CALLED(K0, x, [], caller)
                    return BATCH_EACH(K0, x, [])
                except Exception:
                    return None
            self_ = LAMBDA(run, FACTS1, whole16, BACKEND)
            return self_
        t1 = make2()
        G['loss'] = t1
        if HOOKS: HOOKS.fire('loss', t1)
        return t1
    except BaseException as e:
        raise FAIL(e, W, None)
