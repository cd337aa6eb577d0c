def chunk(_):
    try:
        def make2():
            def run(x):
                try:
                    t1 = x
                    t2, t3 = SCAN_START(None)
                    while True:
                        if not ((t1 > 1) if (type(t1) is int or type(t1) is float) else TRUTH(V3(t1, 1))): break
                        t3(t1)
                        t5 = (t1 % 2) if (type(t1) is int or type(t1) is float) and (type(t1) is int and t1 >= 0) else V4(t1, 2)
                        if ((t5 != 0) if type(t5) is int else TRUTH(t5)):
                            t6 = (3 * t1) if (type(t1) is int or type(t1) is float) and (-2147483648 < t1 < 2147483648) else V5(3, t1)
                            t7 = (1 + t6) if (type(t6) is int or type(t6) is float) else V6(1, t6)
                            t4 = t7
                        else:
                            t8 = (t1 // 2) if (type(t1) is int or type(t1) is float) and (type(t1) is int and t1 >= 0) else V7(t1, 2)
                            t4 = t8
                        t1 = t4
                    t9 = MAKE_LIST(t2)
                    t10 = (len(t9)) if type(t9) is str else M8(t9)
                    return t10
                except BaseException as e:
                    raise FAIL(e, W, self_)
            self_ = LAMBDA(run, FACTS1, None, BACKEND)
            return self_
        t1 = make2()
        G['col'] = t1
        if HOOKS: HOOKS.fire('col', t1)
        return t1
    except BaseException as e:
        raise FAIL(e, W, None)
