def chunk(_):
    try:
        def make2():
            def run(x):
                try:
                    if ((x < 0) if (type(x) is int or type(x) is float) else TRUTH(V3(x, 0))):
                        t1 = -1
                        return t1
                    elif ((x == 0) if (type(x) is int or type(x) is float) else TRUTH(V5(x, 0))):
                        return 0
                    else:
                        t2 = M6(x)
                        t3 = (len(t2)) if type(t2) is str else M7(t2)
                        if ((t3 > 2) if (type(t3) is int or type(t3) is float) else TRUTH(V8(t3, 2))):
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
