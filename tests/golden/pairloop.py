def chunk(_):
    try:
        def make2():
            def run(x, y):
                try:
                    if 0: v0_a = v1_k = None
                    v0_a = x
                    if HOOKS: HOOKS.fire('a', v0_a)
                    v1_k = y
                    if HOOKS: HOOKS.fire('k', v1_k)
                    t1 = (len(v0_a)) if type(v0_a) is str else M3(v0_a)
                    t2 = V4(0, t1)
                    t3 = t2
                    while True:
                        t4 = (t3.item(1)) if (type(t3) is ARRAY_TYPE and type(1) is int and t3.ndim == 1 and 0 <= 1 < t3.shape[0]) else (t3.table.get(1, NO_ENTRY)[1]) if type(t3) is DICT and (type(1) is int or type(1) is str) else V5(t3, 1)
                        t5 = (t3.item(0)) if (type(t3) is ARRAY_TYPE and type(0) is int and t3.ndim == 1 and 0 <= 0 < t3.shape[0]) else (t3.table.get(0, NO_ENTRY)[1]) if type(t3) is DICT and (type(0) is int or type(0) is str) else V6(t3, 0)
                        if not ((t5 < t4) if (type(t5) is int or type(t5) is float) and (type(t4) is int or type(t4) is float) else TRUTH(V7(t5, t4))): break
                        t6 = D8(t3)
                        t7 = (t6 // 2) if (type(t6) is int or type(t6) is float) and (type(t6) is int and t6 >= 0) else V9(t6, 2)
                        v2_m = t7
                        if HOOKS: HOOKS.fire('m', v2_m)
                        t9 = v1_k
                        t10 = (v0_a.item(v2_m)) if (type(v0_a) is ARRAY_TYPE and type(v2_m) is int and v0_a.ndim == 1 and 0 <= v2_m < v0_a.shape[0]) else (v0_a.table.get(v2_m, NO_ENTRY)[1]) if type(v0_a) is DICT and (type(v2_m) is int or type(v2_m) is str) else V10(v0_a, v2_m)
                        if ((t10 < t9) if (type(t10) is int or type(t10) is float) and (type(t9) is int or type(t9) is float) else TRUTH(V11(t10, t9))):
                            t11 = (t3.item(1)) if (type(t3) is ARRAY_TYPE and type(1) is int and t3.ndim == 1 and 0 <= 1 < t3.shape[0]) else (t3.table.get(1, NO_ENTRY)[1]) if type(t3) is DICT and (type(1) is int or type(1) is str) else V12(t3, 1)
                            t12 = (v2_m + 1) if (type(v2_m) is int or type(v2_m) is float) else V13(v2_m, 1)
                            t13 = (t12 + t11) if type(t12) is str and type(t11) is str else V14(t12, t11)
                            t8 = t13
                        else:
                            t14 = v2_m
                            t15 = (t3.item(0)) if (type(t3) is ARRAY_TYPE and type(0) is int and t3.ndim == 1 and 0 <= 0 < t3.shape[0]) else (t3.table.get(0, NO_ENTRY)[1]) if type(t3) is DICT and (type(0) is int or type(0) is str) else V15(t3, 0)
                            t16 = (t15 + t14) if type(t15) is str and type(t14) is str else V16(t15, t14)
                            t8 = t16
                        t3 = t8
                    t17 = M17(t3)
                    return t17
                except BaseException as e:
                    raise FAIL(e, W, self_)
            def whole18(x, y, rows, caller=None):
                try:
                    if HOOKS: return None
                    if caller is not None: return BATCH_CALLED(K0, x, [], caller, y)
                    return BATCH_PAIRS(K0, x, y, [], rows)
                except Exception:
                    return None
            self_ = LAMBDA(run, FACTS1, whole18, BACKEND)
            return self_
        t1 = make2()
        G['bs'] = t1
        if HOOKS: HOOKS.fire('bs', t1)
        return t1
    except BaseException as e:
        raise FAIL(e, W, None)
