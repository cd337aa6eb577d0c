def chunk(_):
    try:
        def make2():
            def run(x):
                try:
                    if 0: v0_n = None
                    v0_n = 0
                    if HOOKS: HOOKS.fire('n', v0_n)
                    def make4():
                        def run(x):
                            try:
                                nonlocal v0_n
                                t1 = (v0_n + x) if (type(v0_n) is int or type(v0_n) is float) and (type(x) is int or type(x) is float) else V5(v0_n, x)
                                v0_n = t1
                                if HOOKS: HOOKS.fire('n', v0_n)
                                return v0_n
                            except BaseException as e:
                                raise FAIL(e, W, self_)
                        self_ = LAMBDA(run, FACTS3, None, BACKEND)
                        return self_
                    t1 = make4()
                    EACH_EFFECT(t1, x)
                    return v0_n
                except BaseException as e:
                    raise FAIL(e, W, self_)
            self_ = LAMBDA(run, FACTS1, None, BACKEND)
            return self_
        t1 = make2()
        G['total'] = t1
        if HOOKS: HOOKS.fire('total', t1)
        return t1
    except BaseException as e:
        raise FAIL(e, W, None)
