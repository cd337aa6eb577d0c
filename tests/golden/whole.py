def chunk(_):
    try:
        def make2():
            def run(x):
                try:
                    if type(x) is float:
                        if x > 0:
                            t1 = (x * 2) if (-2147483648 < x < 2147483648) else V5(x, 2)
                            return t1
                        else:
                            return 0
                    if ((x > 0) if (type(x) is int or type(x) is float) else TRUTH(V6(x, 0))):
                        t2 = (x * 2) if (type(x) is int or type(x) is float) and (-2147483648 < x < 2147483648) else V7(x, 2)
                        return t2
                    else:
                        return 0
                except BaseException as e:
                    raise FAIL(e, W, self_)
            def whole8(x):
                try:
                    t1 = V9(x, 0)
                    t2 = MASK(t1, x)
                    if t2 is None: return None
                    t3 = V10(x, 2)
                    t4 = SELECT(t2, t3, 0)
                    if t4 is None: return None
                    return WHOLE_RESULT(t4, x)
                except Exception:
                    return None
            def whole11(x, caller=None):
                try:
                    t1 = None if caller is not None else whole8(x)
                    if t1 is not None: return t1
                    if caller is not None: return BATCH_CALLED(K0, x, [], caller)
                    return BATCH_EACH(K0, x, [])
                except Exception:
                    return None
            self_ = LAMBDA(run, FACTS1, whole11, BACKEND)
            return self_
        t1 = make2()
        G['clip'] = t1
        if HOOKS: HOOKS.fire('clip', t1)
        return t1
    except BaseException as e:
        raise FAIL(e, W, None)
