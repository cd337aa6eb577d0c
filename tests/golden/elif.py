def chunk(_):
    try:
        def make2():
            def run(x):
                try:
                    if type(x) is float:
                        if x < 0:
                            t1 = -1
                            return t1
                        elif x == 0:
                            return 0
                        else:
                            t2 = M10(x)
                            t3 = (len(t2)) if type(t2) is str else M11(t2)
                            if ((t3 > 2) if (type(t3) is int or type(t3) is float) else TRUTH(V12(t3, 2))):
                                return 100
                            else:
                                return 1
                    if ((x < 0) if (type(x) is int or type(x) is float) else TRUTH(V13(x, 0))):
                        t4 = -1
                        return t4
                    elif ((x == 0) if (type(x) is int or type(x) is float) else TRUTH(V15(x, 0))):
                        return 0
                    else:
                        t5 = M16(x)
                        t6 = (len(t5)) if type(t5) is str else M17(t5)
                        if ((t6 > 2) if (type(t6) is int or type(t6) is float) else TRUTH(V18(t6, 2))):
                            return 100
                        else:
                            return 1
                except BaseException as e:
                    raise FAIL(e, W, self_)
            self_ = LAMBDA(run, FACTS1, None, BACKEND)
            return self_
        t1 = make2()
        G['sign'] = t1
        if HOOKS: HOOKS.fire('sign', t1)
        return t1
    except BaseException as e:
        raise FAIL(e, W, None)
