def chunk(_):
    try:
        def make2():
            def run(x, y):
                try:
                    t1 = (x - y) if (type(x) is int or type(x) is float) and (type(y) is int or type(y) is float) else V3(x, y)
                    return t1
                except BaseException as e:
                    raise FAIL(e, W, self_)
            def whole4(x, y, rows, caller=None):
                try:
                    if caller is not None: return BATCH_CALLED(K0, x, [], caller, y)
                    return BATCH_PAIRS(K0, x, y, [], rows)
                except Exception:
                    return None
            self_ = LAMBDA(run, FACTS1, whole4, BACKEND)
            return self_
        t1 = make2()
        t2 = PROJECT(t1, [None, 1])
        G['less'] = t2
        if HOOKS: HOOKS.fire('less', t2)
        return t2
    except BaseException as e:
        raise FAIL(e, W, None)
