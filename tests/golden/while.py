def chunk(_):
    try:
        def make2():
            def run(x):
                try:
                    t1 = x
                    while True:
                        if not ((t1 < 10) if (type(t1) is int or type(t1) is float) else TRUTH(V3(t1, 10))): break
                        t2 = (t1 + 1) if (type(t1) is int or type(t1) is float) else V4(t1, 1)
                        t1 = t2
                    return t1
                except BaseException as e:
                    raise FAIL(e, W, self_)
            def whole5(x, caller=None):
                try:
                    if caller is not None: return BATCH_CALLED(K0, x, [], caller)
                    return BATCH_EACH(K0, x, [])
                except Exception:
                    return None
            self_ = LAMBDA(run, FACTS1, whole5, BACKEND)
            return self_
        t1 = make2()
        G['upto'] = t1
        if HOOKS: HOOKS.fire('upto', t1)
        return t1
    except BaseException as e:
        raise FAIL(e, W, None)
