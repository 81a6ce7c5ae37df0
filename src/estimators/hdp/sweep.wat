;; The pseudo-count sweep of the HDP Gibbs sampler (ContextTree.sample in tree.ts, step 1), the small
;; nodes' part of its concentration step (step 2) and its estimates below the root (step 3), in
;; WebAssembly.
;;
;; It is the JavaScript loop of tree.ts pair for pair: the same window, the same neighbour-ratio products in
;; the same order of IEEE operations, the same uniform from the same xoshiro128** stream and the same
;; branch-free selection, so the states it leaves are bit-identical (test/estimators/hdp-wasm.test.ts).
;; What it saves is what V8 adds to the JavaScript loop: bounds, map and overflow checks on every typed-array
;; access, and the spills of a function too large for the registers.
;;
;; It does not grow tables and has no logarithms: at a pair whose window reaches beyond the copy of the
;; Stirling ratio tables it was given, or whose weights leave the double range (the log path), it stops and
;; returns that pair's record offset, and tree.ts runs that one pair in JavaScript before calling it again
;; from the next. Built by scripts/wasm.mjs (npm run build) into dist/src/estimators/hdp/sweep.wasm.
;;
;; Memory (all offsets in bytes, laid out by sweep-kernel.ts):
;;   pairs  int32 records of REC = 6: (i,k) offset, (parent,k) offset, node, parent, group of node, of parent
;;   n, t, nSum, tSum  int32 per (node, value) or node, as the tree's arrays
;;   cVal   float64 per concentration group
;;   lp     float64 scratch, 2·window + 1 weights
;;   dir    5 int32 per Stirling chunk j: ratioT base, rows of ratioT copied (n < this), ratioN base,
;;          ratioN row capacity (column stride), rows of ratioN copied
;;   rng    the xoshiro128** state, 4 int32 (read at entry, written back at exit)
;;   members  int32 node ids of the tied concentration groups, one group after another
;;   acc    float64 shape and rate of the group being sampled (step 2)
;;   scratch  3 float64 per member: step 2's variates (or log(1/q)) between its two passes
;;   parent, conc  int32 per node: its parent and its concentration group (step 3)
;;   pCur, pSum    float64 per (node, value): this iteration's estimates and their running sums (step 3)
(module
  (memory (export "memory") 1)

  ;; The xoshiro128** state and Variates' spare normal while step 2 draws gamma variates ($next, $normal).
  (global $g0 (mut i32) (i32.const 0))
  (global $g1 (mut i32) (i32.const 0))
  (global $g2 (mut i32) (i32.const 0))
  (global $g3 (mut i32) (i32.const 0))
  (global $spare (mut f64) (f64.const 0))
  (global $hasSpare (mut i32) (i32.const 0))

  ;; Rng.next() on the globals: two xoshiro128** steps, 27 + 26 bits
  (func $next (result f64)
    (local $s0 i32) (local $s1 i32) (local $s2 i32) (local $s3 i32) (local $tmp i32) (local $r1 i32) (local $r2 i32)
    (local.set $s0 (global.get $g0))
    (local.set $s1 (global.get $g1))
    (local.set $s2 (global.get $g2))
    (local.set $s3 (global.get $g3))
    (local.set $r1
      (i32.shr_u (i32.mul (i32.rotl (i32.mul (local.get $s1) (i32.const 5)) (i32.const 7)) (i32.const 9)) (i32.const 5)))
    (local.set $tmp (i32.shl (local.get $s1) (i32.const 9)))
    (local.set $s2 (i32.xor (local.get $s2) (local.get $s0)))
    (local.set $s3 (i32.xor (local.get $s3) (local.get $s1)))
    (local.set $s1 (i32.xor (local.get $s1) (local.get $s2)))
    (local.set $s0 (i32.xor (local.get $s0) (local.get $s3)))
    (local.set $s2 (i32.xor (local.get $s2) (local.get $tmp)))
    (local.set $s3 (i32.rotl (local.get $s3) (i32.const 11)))
    (local.set $r2
      (i32.shr_u (i32.mul (i32.rotl (i32.mul (local.get $s1) (i32.const 5)) (i32.const 7)) (i32.const 9)) (i32.const 6)))
    (local.set $tmp (i32.shl (local.get $s1) (i32.const 9)))
    (local.set $s2 (i32.xor (local.get $s2) (local.get $s0)))
    (local.set $s3 (i32.xor (local.get $s3) (local.get $s1)))
    (local.set $s1 (i32.xor (local.get $s1) (local.get $s2)))
    (local.set $s0 (i32.xor (local.get $s0) (local.get $s3)))
    (local.set $s2 (i32.xor (local.get $s2) (local.get $tmp)))
    (global.set $g0 (local.get $s0))
    (global.set $g1 (local.get $s1))
    (global.set $g2 (local.get $s2))
    (global.set $g3 (i32.rotl (local.get $s3) (i32.const 11)))
    (f64.div
      (f64.add (f64.mul (f64.convert_i32_u (local.get $r1)) (f64.const 67108864)) (f64.convert_i32_u (local.get $r2)))
      (f64.const 9007199254740992)))

  ;; Variates.uniform(): next() until it is not 0
  (func $uniform (result f64)
    (local $u f64)
    (loop $again
      (local.set $u (call $next))
      (br_if $again (i32.eqz (f64.gt (local.get $u) (f64.const 0)))))
    (local.get $u))

  ;; Variates.normal(): Marsaglia's polar method, the second value of each pair kept for the next call
  (func $normal (result f64)
    (local $u f64) (local $v f64) (local $s f64) (local $f f64)
    (if (global.get $hasSpare)
      (then (global.set $hasSpare (i32.const 0)) (return (global.get $spare))))
    (loop $again
      (local.set $u (f64.sub (f64.mul (f64.const 2) (call $next)) (f64.const 1)))
      (local.set $v (f64.sub (f64.mul (f64.const 2) (call $next)) (f64.const 1)))
      (local.set $s (f64.add (f64.mul (local.get $u) (local.get $u)) (f64.mul (local.get $v) (local.get $v))))
      (if (i32.and (f64.gt (local.get $s) (f64.const 0)) (f64.lt (local.get $s) (f64.const 1)))
        (then
          (local.set $f
            (f64.sqrt (f64.div (f64.mul (f64.const -2) (call $log (local.get $s))) (local.get $s))))
          (global.set $spare (f64.mul (local.get $v) (local.get $f)))
          (global.set $hasSpare (i32.const 1))
          (return (f64.mul (local.get $u) (local.get $f)))))
      (br $again))
    (unreachable))

  ;; Variates.mtGamma(a), a >= 1: Marsaglia & Tsang
  (func $mtGamma (param $a f64) (result f64)
    (local $d f64) (local $c f64) (local $x f64) (local $v f64) (local $u f64) (local $x2 f64)
    (local.set $d (f64.sub (local.get $a) (f64.div (f64.const 1) (f64.const 3))))
    (local.set $c (f64.div (f64.const 1) (f64.sqrt (f64.mul (f64.const 9) (local.get $d)))))
    (loop $again
      (loop $positive
        (local.set $x (call $normal))
        (local.set $v (f64.add (f64.const 1) (f64.mul (local.get $c) (local.get $x))))
        (br_if $positive (f64.le (local.get $v) (f64.const 0))))
      (local.set $v (f64.mul (f64.mul (local.get $v) (local.get $v)) (local.get $v)))
      (local.set $u (call $uniform))
      (local.set $x2 (f64.mul (local.get $x) (local.get $x)))
      (if (f64.lt (local.get $u)
            (f64.sub (f64.const 1) (f64.mul (f64.mul (f64.const 0.0331) (local.get $x2)) (local.get $x2))))
        (then (return (f64.mul (local.get $d) (local.get $v)))))
      (if (f64.lt (call $log (local.get $u))
            (f64.add (f64.mul (f64.const 0.5) (local.get $x2))
              (f64.mul (local.get $d)
                (f64.add (f64.sub (f64.const 1) (local.get $v)) (call $log (local.get $v))))))
        (then (return (f64.mul (local.get $d) (local.get $v)))))
      (br $again))
    (unreachable))

  ;; Math.log for x >= 0 (uniforms, gamma variates), bit for bit: V8 computes Math.log with fdlibm's
  ;; __ieee754_log (FreeBSD msun e_log.c, in V8's src/base/ieee754.cc), and this is that algorithm with
  ;; the same IEEE operations in the same order, without its branches for negative, infinite and NaN
  ;; arguments (none reaches it). Inline here, it saves the call out of the sandbox per uniform.
  ;; test/estimators/hdp-wasm.test.ts compares it with Math.log.
  (func $log (export "log") (param $x f64) (result f64)
    (local $bits i64) (local $hx i32) (local $k i32) (local $i i32) (local $j i32)
    (local $f f64) (local $s f64) (local $dk f64) (local $z f64) (local $w f64) (local $r f64) (local $hfsq f64)
    (local.set $bits (i64.reinterpret_f64 (local.get $x)))
    (local.set $hx (i32.wrap_i64 (i64.shr_u (local.get $bits) (i64.const 32))))
    ;; x < 2^−1022: log(0) = −∞; a subnormal x is scaled up by 2^54
    (if (i32.lt_s (local.get $hx) (i32.const 0x00100000))
      (then
        (if (f64.eq (local.get $x) (f64.const 0)) (then (return (f64.const -inf))))
        (local.set $k (i32.const -54))
        (local.set $x (f64.mul (local.get $x) (f64.const 1.80143985094819840000e+16)))
        (local.set $bits (i64.reinterpret_f64 (local.get $x)))
        (local.set $hx (i32.wrap_i64 (i64.shr_u (local.get $bits) (i64.const 32))))))
    (local.set $k (i32.add (local.get $k) (i32.sub (i32.shr_s (local.get $hx) (i32.const 20)) (i32.const 1023))))
    (local.set $hx (i32.and (local.get $hx) (i32.const 0x000fffff)))
    (local.set $i (i32.and (i32.add (local.get $hx) (i32.const 0x95f64)) (i32.const 0x100000)))
    ;; normalize x or x/2: the high word becomes hx | (i ^ 0x3ff00000)
    (local.set $x
      (f64.reinterpret_i64
        (i64.or
          (i64.shl
            (i64.extend_i32_u (i32.or (local.get $hx) (i32.xor (local.get $i) (i32.const 0x3ff00000))))
            (i64.const 32))
          (i64.and (local.get $bits) (i64.const 0xffffffff)))))
    (local.set $k (i32.add (local.get $k) (i32.shr_s (local.get $i) (i32.const 20))))
    (local.set $f (f64.sub (local.get $x) (f64.const 1)))
    ;; −2^−20 <= f < 2^−20
    (if (i32.lt_s (i32.and (i32.const 0x000fffff) (i32.add (i32.const 2) (local.get $hx))) (i32.const 3))
      (then
        (if (f64.eq (local.get $f) (f64.const 0))
          (then
            (if (i32.eqz (local.get $k)) (then (return (f64.const 0))))
            (local.set $dk (f64.convert_i32_s (local.get $k)))
            (return
              (f64.add
                (f64.mul (local.get $dk) (f64.const 6.93147180369123816490e-01))
                (f64.mul (local.get $dk) (f64.const 1.90821492927058770002e-10))))))
        (local.set $r
          (f64.mul (f64.mul (local.get $f) (local.get $f))
            (f64.sub (f64.const 0.5) (f64.mul (f64.const 0.33333333333333333) (local.get $f)))))
        (if (i32.eqz (local.get $k)) (then (return (f64.sub (local.get $f) (local.get $r)))))
        (local.set $dk (f64.convert_i32_s (local.get $k)))
        (return
          (f64.sub
            (f64.mul (local.get $dk) (f64.const 6.93147180369123816490e-01))
            (f64.sub
              (f64.sub (local.get $r) (f64.mul (local.get $dk) (f64.const 1.90821492927058770002e-10)))
              (local.get $f))))))
    (local.set $s (f64.div (local.get $f) (f64.add (f64.const 2) (local.get $f))))
    (local.set $dk (f64.convert_i32_s (local.get $k)))
    (local.set $z (f64.mul (local.get $s) (local.get $s)))
    (local.set $i (i32.sub (local.get $hx) (i32.const 0x6147a)))
    (local.set $w (f64.mul (local.get $z) (local.get $z)))
    (local.set $j (i32.sub (i32.const 0x6b851) (local.get $hx)))
    ;; R = t2 + t1, t1 = w(Lg2 + w(Lg4 + w Lg6)), t2 = z(Lg1 + w(Lg3 + w(Lg5 + w Lg7)))
    (local.set $r
      (f64.add
        (f64.mul (local.get $z)
          (f64.add (f64.const 6.666666666666735130e-01)
            (f64.mul (local.get $w)
              (f64.add (f64.const 2.857142874366239149e-01)
                (f64.mul (local.get $w)
                  (f64.add (f64.const 1.818357216161805012e-01)
                    (f64.mul (local.get $w) (f64.const 1.479819860511658591e-01))))))))
        (f64.mul (local.get $w)
          (f64.add (f64.const 3.999999999940941908e-01)
            (f64.mul (local.get $w)
              (f64.add (f64.const 2.222219843214978396e-01)
                (f64.mul (local.get $w) (f64.const 1.531383769920937332e-01))))))))
    (if (i32.gt_s (i32.or (local.get $i) (local.get $j)) (i32.const 0))
      (then
        (local.set $hfsq (f64.mul (f64.mul (f64.const 0.5) (local.get $f)) (local.get $f)))
        (if (i32.eqz (local.get $k))
          (then
            (return
              (f64.sub (local.get $f)
                (f64.sub (local.get $hfsq)
                  (f64.mul (local.get $s) (f64.add (local.get $hfsq) (local.get $r))))))))
        (return
          (f64.sub
            (f64.mul (local.get $dk) (f64.const 6.93147180369123816490e-01))
            (f64.sub
              (f64.sub (local.get $hfsq)
                (f64.add
                  (f64.mul (local.get $s) (f64.add (local.get $hfsq) (local.get $r)))
                  (f64.mul (local.get $dk) (f64.const 1.90821492927058770002e-10))))
              (local.get $f))))))
    (if (i32.eqz (local.get $k))
      (then
        (return
          (f64.sub (local.get $f) (f64.mul (local.get $s) (f64.sub (local.get $f) (local.get $r)))))))
    (f64.sub
      (f64.mul (local.get $dk) (f64.const 6.93147180369123816490e-01))
      (f64.sub
        (f64.sub
          (f64.mul (local.get $s) (f64.sub (local.get $f) (local.get $r)))
          (f64.mul (local.get $dk) (f64.const 1.90821492927058770002e-10)))
        (local.get $f))))

;; Math.exp, bit for bit, as $log is Math.log: V8 computes it with fdlibm's __ieee754_exp (FreeBSD msun
  ;; e_exp.c, in src/base/ieee754.cc), and this is that algorithm with the same IEEE operations in the
  ;; same order. It used to be Math.exp imported from JavaScript; a call out of the module costs more than
  ;; the function (a wrapper, and a heap number for the argument and the result each way), and step 2 makes
  ;; one per large node. test/estimators/hdp-wasm.test.ts compares it with Math.exp.
  (func $exp (export "exp") (param $x f64) (result f64)
    (local $bits i64) (local $hx i32) (local $xsb i32) (local $k i32)
    (local $hi f64) (local $lo f64) (local $t f64) (local $c f64) (local $y f64) (local $twopk f64)
    (local.set $bits (i64.reinterpret_f64 (local.get $x)))
    (local.set $hx (i32.wrap_i64 (i64.shr_u (local.get $bits) (i64.const 32))))
    (local.set $xsb (i32.shr_u (local.get $hx) (i32.const 31)))
    (local.set $hx (i32.and (local.get $hx) (i32.const 0x7fffffff)))
    ;; |x| >= 709.78…: NaN, ±∞, overflow, underflow
    (if (i32.ge_u (local.get $hx) (i32.const 0x40862E42))
      (then
        (if (i32.ge_u (local.get $hx) (i32.const 0x7ff00000))
          (then
            (if (i32.or (i32.and (local.get $hx) (i32.const 0xfffff)) (i32.wrap_i64 (local.get $bits)))
              (then (return (f64.add (local.get $x) (local.get $x)))))
            (if (local.get $xsb) (then (return (f64.const 0))))
            (return (local.get $x))))
        (if (f64.gt (local.get $x) (f64.const 7.09782712893383973096e+02)) (then (return (f64.const inf))))
        (if (f64.lt (local.get $x) (f64.const -7.45133219101941108420e+02)) (then (return (f64.const 0))))))
    ;; argument reduction: x = hi − lo = x − k ln 2
    (if (i32.gt_u (local.get $hx) (i32.const 0x3fd62e42))
      (then
        (if (i32.lt_u (local.get $hx) (i32.const 0x3FF0A2B2))
          (then
            (if (local.get $xsb)
              (then
                (local.set $hi (f64.sub (local.get $x) (f64.const -6.93147180369123816490e-01)))
                (local.set $lo (f64.const -1.90821492927058770002e-10))
                (local.set $k (i32.const -1)))
              (else
                ;; V8 returns Math.E for x = 1 (the reduction below would round its last bit the other way)
                (if (f64.eq (local.get $x) (f64.const 1)) (then (return (f64.const 2.718281828459045))))
                (local.set $hi (f64.sub (local.get $x) (f64.const 6.93147180369123816490e-01)))
                (local.set $lo (f64.const 1.90821492927058770002e-10))
                (local.set $k (i32.const 1)))))
          (else
            (local.set $k
              (i32.trunc_f64_s
                (f64.add (f64.mul (f64.const 1.44269504088896338700e+00) (local.get $x))
                  (select (f64.const -0.5) (f64.const 0.5) (local.get $xsb)))))
            (local.set $t (f64.convert_i32_s (local.get $k)))
            (local.set $hi (f64.sub (local.get $x) (f64.mul (local.get $t) (f64.const 6.93147180369123816490e-01))))
            (local.set $lo (f64.mul (local.get $t) (f64.const 1.90821492927058770002e-10)))))
        (local.set $x (f64.sub (local.get $hi) (local.get $lo))))
      (else
        ;; |x| < 2^−28: 1 + x
        (if (i32.lt_u (local.get $hx) (i32.const 0x3e300000))
          (then (return (f64.add (f64.const 1) (local.get $x)))))))
    (local.set $t (f64.mul (local.get $x) (local.get $x)))
    (local.set $twopk
      (f64.reinterpret_i64
        (i64.shl
          (i64.extend_i32_u
            (i32.add (i32.const 0x3ff00000)
              (i32.shl
                (select (local.get $k) (i32.add (local.get $k) (i32.const 1000))
                  (i32.ge_s (local.get $k) (i32.const -1021)))
                (i32.const 20))))
          (i64.const 32))))
    (local.set $c
      (f64.sub (local.get $x)
        (f64.mul (local.get $t)
          (f64.add (f64.const 1.66666666666666019037e-01)
            (f64.mul (local.get $t)
              (f64.add (f64.const -2.77777777770155933842e-03)
                (f64.mul (local.get $t)
                  (f64.add (f64.const 6.61375632143793436117e-05)
                    (f64.mul (local.get $t)
                      (f64.add (f64.const -1.65339022054652515390e-06)
                        (f64.mul (local.get $t) (f64.const 4.13813679705723846039e-08))))))))))))
    (if (i32.eqz (local.get $k))
      (then
        (return
          (f64.sub (f64.const 1)
            (f64.sub
              (f64.div (f64.mul (local.get $x) (local.get $c)) (f64.sub (local.get $c) (f64.const 2)))
              (local.get $x))))))
    (local.set $y
      (f64.sub (f64.const 1)
        (f64.sub
          (f64.sub (local.get $lo)
            (f64.div (f64.mul (local.get $x) (local.get $c)) (f64.sub (f64.const 2) (local.get $c))))
          (local.get $hi))))
    (if (i32.ge_s (local.get $k) (i32.const -1021))
      (then
        (if (i32.eq (local.get $k) (i32.const 1024))
          (then (return (f64.mul (f64.mul (local.get $y) (f64.const 2)) (f64.const 0x1p1023)))))
        (return (f64.mul (local.get $y) (local.get $twopk)))))
    (f64.mul (f64.mul (local.get $y) (local.get $twopk)) (f64.const 0x1p-1000)))

  ;; Math.log1p, bit for bit, likewise: fdlibm's log1p (FreeBSD msun s_log1p.c, in V8's ieee754.cc), the
  ;; same operations in the same order; it was an import for the same reason as $exp.
  (func $log1p (export "log1p") (param $x f64) (result f64)
    (local $hx i32) (local $ax i32) (local $k i32) (local $hu i32)
    (local $f f64) (local $c f64) (local $s f64) (local $z f64) (local $R f64) (local $u f64) (local $hfsq f64)
    (local $dk f64)
    (local.set $hx (i32.wrap_i64 (i64.shr_u (i64.reinterpret_f64 (local.get $x)) (i64.const 32))))
    (local.set $ax (i32.and (local.get $hx) (i32.const 0x7fffffff)))
    (local.set $k (i32.const 1))
    ;; 1 + x < √2
    (if (i32.lt_s (local.get $hx) (i32.const 0x3FDA827A))
      (then
        ;; x <= −1: −∞ at −1, else NaN
        (if (i32.ge_u (local.get $ax) (i32.const 0x3ff00000))
          (then
            (if (f64.eq (local.get $x) (f64.const -1)) (then (return (f64.const -inf))))
            (return
              (f64.div (f64.sub (local.get $x) (local.get $x)) (f64.sub (local.get $x) (local.get $x))))))
        ;; |x| < 2^−29: x (|x| < 2^−54), else x − x² / 2
        (if (i32.lt_u (local.get $ax) (i32.const 0x3e200000))
          (then
            (if (i32.lt_u (local.get $ax) (i32.const 0x3c900000)) (then (return (local.get $x))))
            (return
              (f64.sub (local.get $x) (f64.mul (f64.mul (local.get $x) (local.get $x)) (f64.const 0.5))))))
        ;; √2/2 <= 1 + x < √2: f = x, no correction term
        (if (i32.or (i32.gt_s (local.get $hx) (i32.const 0)) (i32.le_s (local.get $hx) (i32.const 0xbfd2bec4)))
          (then
            (local.set $k (i32.const 0))
            (local.set $f (local.get $x))
            (local.set $hu (i32.const 1))))))
    ;; +∞ or NaN
    (if (i32.ge_s (local.get $hx) (i32.const 0x7ff00000)) (then (return (f64.add (local.get $x) (local.get $x)))))
    (if (local.get $k)
      (then
        (if (i32.lt_s (local.get $hx) (i32.const 0x43400000))
          (then
            (local.set $u (f64.add (f64.const 1) (local.get $x)))
            (local.set $hu (i32.wrap_i64 (i64.shr_u (i64.reinterpret_f64 (local.get $u)) (i64.const 32))))
            (local.set $k (i32.sub (i32.shr_s (local.get $hu) (i32.const 20)) (i32.const 1023)))
            ;; the correction term
            (if (i32.gt_s (local.get $k) (i32.const 0))
              (then (local.set $c (f64.sub (f64.const 1) (f64.sub (local.get $u) (local.get $x)))))
              (else (local.set $c (f64.sub (local.get $x) (f64.sub (local.get $u) (f64.const 1))))))
            (local.set $c (f64.div (local.get $c) (local.get $u))))
          (else
            (local.set $u (local.get $x))
            (local.set $hu (i32.wrap_i64 (i64.shr_u (i64.reinterpret_f64 (local.get $u)) (i64.const 32))))
            (local.set $k (i32.sub (i32.shr_s (local.get $hu) (i32.const 20)) (i32.const 1023)))
            (local.set $c (f64.const 0))))
        (local.set $hu (i32.and (local.get $hu) (i32.const 0x000fffff)))
        ;; normalize u (u ~< √2), or u/2
        (if (i32.lt_s (local.get $hu) (i32.const 0x6a09e))
          (then
            (local.set $u
              (f64.reinterpret_i64
                (i64.or
                  (i64.shl (i64.extend_i32_u (i32.or (local.get $hu) (i32.const 0x3ff00000))) (i64.const 32))
                  (i64.and (i64.reinterpret_f64 (local.get $u)) (i64.const 0xffffffff))))))
          (else
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (local.set $u
              (f64.reinterpret_i64
                (i64.or
                  (i64.shl (i64.extend_i32_u (i32.or (local.get $hu) (i32.const 0x3fe00000))) (i64.const 32))
                  (i64.and (i64.reinterpret_f64 (local.get $u)) (i64.const 0xffffffff)))))
            (local.set $hu (i32.shr_s (i32.sub (i32.const 0x00100000) (local.get $hu)) (i32.const 2)))))
        (local.set $f (f64.sub (local.get $u) (f64.const 1)))))
    (local.set $hfsq (f64.mul (f64.mul (f64.const 0.5) (local.get $f)) (local.get $f)))
    (local.set $dk (f64.convert_i32_s (local.get $k)))
    ;; |f| < 2^−20
    (if (i32.eqz (local.get $hu))
      (then
        (if (f64.eq (local.get $f) (f64.const 0))
          (then
            (if (i32.eqz (local.get $k)) (then (return (f64.const 0))))
            (local.set $c (f64.add (local.get $c) (f64.mul (local.get $dk) (f64.const 1.90821492927058770002e-10))))
            (return (f64.add (f64.mul (local.get $dk) (f64.const 6.93147180369123816490e-01)) (local.get $c)))))
        (local.set $R
          (f64.mul (local.get $hfsq)
            (f64.sub (f64.const 1) (f64.mul (f64.const 0.66666666666666666) (local.get $f)))))
        (if (i32.eqz (local.get $k)) (then (return (f64.sub (local.get $f) (local.get $R)))))
        (return
          (f64.sub (f64.mul (local.get $dk) (f64.const 6.93147180369123816490e-01))
            (f64.sub
              (f64.sub (local.get $R)
                (f64.add (f64.mul (local.get $dk) (f64.const 1.90821492927058770002e-10)) (local.get $c)))
              (local.get $f))))))
    (local.set $s (f64.div (local.get $f) (f64.add (f64.const 2) (local.get $f))))
    (local.set $z (f64.mul (local.get $s) (local.get $s)))
    (local.set $R
      (f64.mul (local.get $z)
        (f64.add (f64.const 6.666666666666735130e-01)
          (f64.mul (local.get $z)
            (f64.add (f64.const 3.999999999940941908e-01)
              (f64.mul (local.get $z)
                (f64.add (f64.const 2.857142874366239149e-01)
                  (f64.mul (local.get $z)
                    (f64.add (f64.const 2.222219843214978396e-01)
                      (f64.mul (local.get $z)
                        (f64.add (f64.const 1.818357216161805012e-01)
                          (f64.mul (local.get $z)
                            (f64.add (f64.const 1.531383769920937332e-01)
                              (f64.mul (local.get $z) (f64.const 1.479819860511658591e-01)))))))))))))))
    (if (i32.eqz (local.get $k))
      (then
        (return
          (f64.sub (local.get $f)
            (f64.sub (local.get $hfsq) (f64.mul (local.get $s) (f64.add (local.get $hfsq) (local.get $R))))))))
    (f64.sub (f64.mul (local.get $dk) (f64.const 6.93147180369123816490e-01))
      (f64.sub
        (f64.sub (local.get $hfsq)
          (f64.add
            (f64.mul (local.get $s) (f64.add (local.get $hfsq) (local.get $R)))
            (f64.add (f64.mul (local.get $dk) (f64.const 1.90821492927058770002e-10)) (local.get $c))))
        (local.get $f))))

    ;; Step 2 for members[from .. to) of one group with concentration c: for each node with N = nSum > 0,
  ;; shape += tSum and rate += min(log(1/q), maxLogInvQ) with q ~ Beta(c, N) drawn as Variates.logInvBeta
  ;; draws it: for N <= 16 Σ_i −log(U_i)/(c + i), each U from Variates.uniform() (Rng.next(), again while
  ;; 0), else from two gamma variates. acc holds shape, rate, and Variates' spare normal (has one: 1 or 0,
  ;; its value), read at entry and written back.
  (func (export "concentrations")
    (param $members i32) (param $from i32) (param $to i32) (param $c f64)
    (param $nSum i32) (param $tSum i32) (param $acc i32) (param $rng i32) (param $maxLogInvQ f64)
    (param $scratch i32)
    (local $idx i32) (local $node i32) (local $N i32) (local $i i32) (local $sc i32) (local $z f64)
    (local $s0 i32) (local $s1 i32) (local $s2 i32) (local $s3 i32) (local $tmp i32) (local $r1 i32) (local $r2 i32)
    (local $shape f64) (local $rate f64) (local $li f64) (local $u f64)
    (global.set $hasSpare (i32.trunc_f64_s (f64.load offset=16 (local.get $acc))))
    (global.set $spare (f64.load offset=24 (local.get $acc)))
    (local.set $shape (f64.load offset=0 (local.get $acc)))
    (local.set $rate (f64.load offset=8 (local.get $acc)))
    (local.set $s0 (i32.load offset=0 (local.get $rng)))
    (local.set $s1 (i32.load offset=4 (local.get $rng)))
    (local.set $s2 (i32.load offset=8 (local.get $rng)))
    (local.set $s3 (i32.load offset=12 (local.get $rng)))
    (local.set $idx (local.get $from))
    (block $out
      (loop $member
        (br_if $out (i32.ge_s (local.get $idx) (local.get $to)))
        (local.set $node (i32.load (i32.add (local.get $members) (i32.shl (local.get $idx) (i32.const 2)))))
        (local.set $N (i32.load (i32.add (local.get $nSum) (i32.shl (local.get $node) (i32.const 2)))))
        (block $next
          (br_if $next (i32.eqz (local.get $N)))
          (local.set $shape
            (f64.add (local.get $shape)
              (f64.convert_i32_s
                (i32.load (i32.add (local.get $tSum) (i32.shl (local.get $node) (i32.const 2)))))))
          (local.set $sc (i32.add (local.get $scratch) (i32.mul (local.get $idx) (i32.const 24))))
          (if (i32.gt_s (local.get $N) (i32.const 16))
            (then
              ;; Variates.logInvBeta(c, N) for N > 16 is log((X + Y)/X), X ~ Gamma(c), Y ~ Gamma(N), from
              ;; log Y − log X; its draws, through the globals: Gamma(N), then Gamma(c) (Variates.logGamma:
              ;; Gamma(c + 1) and a uniform, log X = log Gamma(c + 1) + log(U)/c, when c < 1). The logarithms
              ;; wait for the second pass.
              (global.set $g0 (local.get $s0))
              (global.set $g1 (local.get $s1))
              (global.set $g2 (local.get $s2))
              (global.set $g3 (local.get $s3))
              (f64.store offset=0 (local.get $sc) (call $mtGamma (f64.convert_i32_s (local.get $N))))
              (if (f64.lt (local.get $c) (f64.const 1))
                (then
                  (f64.store offset=8 (local.get $sc) (call $mtGamma (f64.add (local.get $c) (f64.const 1))))
                  (f64.store offset=16 (local.get $sc) (call $uniform)))
                (else (f64.store offset=8 (local.get $sc) (call $mtGamma (local.get $c)))))
              (local.set $s0 (global.get $g0))
              (local.set $s1 (global.get $g1))
              (local.set $s2 (global.get $g2))
              (local.set $s3 (global.get $g3))
              (br $next)))
          (local.set $li (f64.const 0))
          (local.set $i (i32.const 0))
          (loop $draw
            ;; u = Variates.uniform(): Rng.next() until it is not 0
            (loop $uniform
              (local.set $r1
                (i32.shr_u
                  (i32.mul (i32.rotl (i32.mul (local.get $s1) (i32.const 5)) (i32.const 7)) (i32.const 9))
                  (i32.const 5)))
              (local.set $tmp (i32.shl (local.get $s1) (i32.const 9)))
              (local.set $s2 (i32.xor (local.get $s2) (local.get $s0)))
              (local.set $s3 (i32.xor (local.get $s3) (local.get $s1)))
              (local.set $s1 (i32.xor (local.get $s1) (local.get $s2)))
              (local.set $s0 (i32.xor (local.get $s0) (local.get $s3)))
              (local.set $s2 (i32.xor (local.get $s2) (local.get $tmp)))
              (local.set $s3 (i32.rotl (local.get $s3) (i32.const 11)))
              (local.set $r2
                (i32.shr_u
                  (i32.mul (i32.rotl (i32.mul (local.get $s1) (i32.const 5)) (i32.const 7)) (i32.const 9))
                  (i32.const 6)))
              (local.set $tmp (i32.shl (local.get $s1) (i32.const 9)))
              (local.set $s2 (i32.xor (local.get $s2) (local.get $s0)))
              (local.set $s3 (i32.xor (local.get $s3) (local.get $s1)))
              (local.set $s1 (i32.xor (local.get $s1) (local.get $s2)))
              (local.set $s0 (i32.xor (local.get $s0) (local.get $s3)))
              (local.set $s2 (i32.xor (local.get $s2) (local.get $tmp)))
              (local.set $s3 (i32.rotl (local.get $s3) (i32.const 11)))
              (local.set $u
                (f64.div
                  (f64.add
                    (f64.mul (f64.convert_i32_u (local.get $r1)) (f64.const 67108864))
                    (f64.convert_i32_u (local.get $r2)))
                  (f64.const 9007199254740992)))
              (br_if $uniform (i32.eqz (f64.gt (local.get $u) (f64.const 0)))))
            ;; s −= log(u) / (c + i)
            (local.set $li
              (f64.sub (local.get $li)
                (f64.div (call $log (local.get $u))
                  (f64.add (local.get $c) (f64.convert_i32_s (local.get $i))))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br_if $draw (i32.lt_s (local.get $i) (local.get $N))))
          (f64.store (local.get $sc) (local.get $li)))
        (local.set $idx (i32.add (local.get $idx) (i32.const 1)))
        (br $member)))
    ;; Second pass, no draws: log(1/q) of the large nodes from their variates (log Gamma(N) − log Gamma(c),
    ;; then log1p(exp(z)), or z + exp(−z) for z > 35, as Variates.logInvBeta), and the rate, in member
    ;; order.
    ;; Apart from the draws, the nodes' logarithms do not depend on each other: in one loop without draws
    ;; (and without the rejection loops' branches) the processor overlaps them instead of running each
    ;; chain of log, exp and log1p after the previous one.
    (local.set $idx (local.get $from))
    (block $done
      (loop $member2
        (br_if $done (i32.ge_s (local.get $idx) (local.get $to)))
        (local.set $node (i32.load (i32.add (local.get $members) (i32.shl (local.get $idx) (i32.const 2)))))
        (local.set $N (i32.load (i32.add (local.get $nSum) (i32.shl (local.get $node) (i32.const 2)))))
        (local.set $sc (i32.add (local.get $scratch) (i32.mul (local.get $idx) (i32.const 24))))
        (if (local.get $N)
          (then
            (if (i32.gt_s (local.get $N) (i32.const 16))
              (then
                (local.set $z
                  (f64.sub (call $log (f64.load offset=0 (local.get $sc)))
                    (if (result f64) (f64.lt (local.get $c) (f64.const 1))
                      (then
                        (f64.add (call $log (f64.load offset=8 (local.get $sc)))
                          (f64.div (call $log (f64.load offset=16 (local.get $sc))) (local.get $c))))
                      (else (call $log (f64.load offset=8 (local.get $sc)))))))
                (local.set $li
                  (if (result f64) (f64.gt (local.get $z) (f64.const 35))
                    (then (f64.add (local.get $z) (call $exp (f64.neg (local.get $z)))))
                    (else (call $log1p (call $exp (local.get $z)))))))
              (else (local.set $li (f64.load (local.get $sc)))))
            (local.set $rate
              (f64.add (local.get $rate)
                (select (local.get $li) (local.get $maxLogInvQ) (f64.lt (local.get $li) (local.get $maxLogInvQ)))))))
        (local.set $idx (i32.add (local.get $idx) (i32.const 1)))
        (br $member2)))
    (f64.store offset=0 (local.get $acc) (local.get $shape))
    (f64.store offset=8 (local.get $acc) (local.get $rate))
    (f64.store offset=16 (local.get $acc) (f64.convert_i32_s (global.get $hasSpare)))
    (f64.store offset=24 (local.get $acc) (global.get $spare))
    (i32.store offset=0 (local.get $rng) (local.get $s0))
    (i32.store offset=4 (local.get $rng) (local.get $s1))
    (i32.store offset=8 (local.get $rng) (local.get $s2))
    (i32.store offset=12 (local.get $rng) (local.get $s3)))

  ;; sweep(q, end, …) runs the pairs of records q, q + 6, … < end (offsets in int32 units, as tree.ts counts
  ;; them) and returns −1, or the first record it leaves to JavaScript.
  (func (export "sweep")
    (param $q i32) (param $end i32)
    (param $pairs i32) (param $n i32) (param $t i32) (param $nSum i32) (param $tSum i32)
    (param $cVal i32) (param $lp i32) (param $dir i32) (param $chunks i32) (param $rng i32)
    (param $w i32) (param $maxTk i32)
    (result i32)
    (local $ret i32)
    (local $s0 i32) (local $s1 i32) (local $s2 i32) (local $s3 i32) (local $tmp i32) (local $r1 i32) (local $r2 i32)
    (local $rec i32) (local $ik i32) (local $nn i32) (local $pk i32) (local $tOld i32) (local $pn i32) (local $pt i32)
    (local $lo i32) (local $hi i32) (local $p i32) (local $pN i32) (local $pj i32) (local $m i32)
    (local $x i32) (local $tt i32) (local $j i32) (local $tp i32) (local $pp i32) (local $on i32) (local $tiny i32)
    (local $d i32) (local $a i32)
    (local $c f64) (local $den f64) (local $v f64) (local $sum f64) (local $u f64) (local $l f64)
    (local.set $ret (i32.const -1))
    (local.set $s0 (i32.load offset=0 (local.get $rng)))
    (local.set $s1 (i32.load offset=4 (local.get $rng)))
    (local.set $s2 (i32.load offset=8 (local.get $rng)))
    (local.set $s3 (i32.load offset=12 (local.get $rng)))
    (block $out
      (loop $pair
        (br_if $out (i32.ge_s (local.get $q) (local.get $end)))
        (local.set $rec (i32.add (local.get $pairs) (i32.shl (local.get $q) (i32.const 2))))
        (local.set $ik (i32.load (local.get $rec)))
        (local.set $nn (i32.load (i32.add (local.get $n) (i32.shl (local.get $ik) (i32.const 2)))))
        (block $next
          ;; n < 2: t = n is forced (and already holds)
          (br_if $next (i32.lt_s (local.get $nn) (i32.const 2)))
          (local.set $pk (i32.load offset=4 (local.get $rec)))
          (local.set $tOld (i32.load (i32.add (local.get $t) (i32.shl (local.get $ik) (i32.const 2)))))
          (local.set $pn (i32.load (i32.add (local.get $n) (i32.shl (local.get $pk) (i32.const 2)))))
          (local.set $pt (i32.load (i32.add (local.get $t) (i32.shl (local.get $pk) (i32.const 2)))))
          ;; the window: lo = max(tOld − w, 1, tOld − (pn − pt)), hi = min(tOld + w, n, MAX_TK)
          (local.set $lo (i32.sub (local.get $tOld) (local.get $w)))
          (if (i32.lt_s (local.get $lo) (i32.const 1)) (then (local.set $lo (i32.const 1))))
          (local.set $a (i32.sub (local.get $tOld) (i32.sub (local.get $pn) (local.get $pt))))
          (if (i32.lt_s (local.get $lo) (local.get $a)) (then (local.set $lo (local.get $a))))
          (local.set $hi (i32.add (local.get $tOld) (local.get $w)))
          (if (i32.gt_s (local.get $hi) (local.get $nn)) (then (local.set $hi (local.get $nn))))
          (if (i32.gt_s (local.get $hi) (local.get $maxTk)) (then (local.set $hi (local.get $maxTk))))
          ;; tOld is the only admissible value
          (br_if $next (i32.le_s (local.get $hi) (local.get $lo)))
          (local.set $p (i32.load offset=12 (local.get $rec)))
          (local.set $pN (i32.load (i32.add (local.get $nSum) (i32.shl (local.get $p) (i32.const 2)))))
          ;; B(n, lo+1 .. hi) must be copied: chunk hi >> 6 (rows fill non-increasingly in the chunk index)
          (local.set $j (i32.shr_s (local.get $hi) (i32.const 6)))
          (if (i32.ge_s (local.get $j) (local.get $chunks)) (then (local.set $ret (local.get $q)) (br $out)))
          (local.set $a (i32.add (local.get $dir) (i32.mul (local.get $j) (i32.const 20))))
          (if (i32.ge_s (local.get $nn) (i32.load offset=4 (local.get $a)))
            (then (local.set $ret (local.get $q)) (br $out)))
          ;; and P(pn + lo − tOld + 1 .. pn + hi − tOld, pt), in chunk pt >> 6
          (local.set $pj (i32.shr_s (local.get $pt) (i32.const 6)))
          (if (i32.ge_s (local.get $pj) (local.get $chunks)) (then (local.set $ret (local.get $q)) (br $out)))
          (local.set $a (i32.add (local.get $dir) (i32.mul (local.get $pj) (i32.const 20))))
          (if (i32.ge_s
                (i32.sub (i32.add (local.get $pn) (local.get $hi)) (local.get $tOld))
                (i32.load offset=16 (local.get $a)))
            (then (local.set $ret (local.get $q)) (br $out)))
          ;; pp → P(pn − tOld + lo + 1, pt): column pt & 63 of chunk pj, row pn − tOld + lo + 1 − 64·pj
          (local.set $pp
            (i32.add (i32.load offset=8 (local.get $a))
              (i32.shl
                (i32.sub
                  (i32.add
                    (i32.add
                      (i32.sub
                        (i32.add
                          (i32.mul (i32.and (local.get $pt) (i32.const 63)) (i32.load offset=12 (local.get $a)))
                          (local.get $pn))
                        (local.get $tOld))
                      (local.get $lo))
                    (i32.const 1))
                  (i32.shl (local.get $pj) (i32.const 6)))
                (i32.const 3))))
          (local.set $m (i32.sub (local.get $hi) (local.get $lo)))
          (local.set $c
            (f64.load (i32.add (local.get $cVal) (i32.shl (i32.load offset=16 (local.get $rec)) (i32.const 3)))))
          ;; den = c_parent + N_parent + lo − tOld, added left to right as in JavaScript
          (local.set $den
            (f64.sub
              (f64.add
                (f64.add
                  (f64.load
                    (i32.add (local.get $cVal) (i32.shl (i32.load offset=20 (local.get $rec)) (i32.const 3))))
                  (f64.convert_i32_s (local.get $pN)))
                (f64.convert_i32_s (local.get $lo)))
              (f64.convert_i32_s (local.get $tOld))))
          (local.set $v (f64.const 1))
          (local.set $sum (f64.const 1))
          (local.set $tiny (i32.const 0))
          (f64.store (local.get $lp) (f64.const 1))
          ;; tp → B(n, lo + 1): row n − 64j, column (lo + 1) & 63 of chunk j = (lo + 1) >> 6
          (local.set $tt (i32.add (local.get $lo) (i32.const 1)))
          (local.set $j (i32.shr_s (local.get $tt) (i32.const 6)))
          (local.set $tp
            (i32.add (i32.load (i32.add (local.get $dir) (i32.mul (local.get $j) (i32.const 20))))
              (i32.shl
                (i32.add
                  (i32.shl (i32.sub (local.get $nn) (i32.shl (local.get $j) (i32.const 6))) (i32.const 6))
                  (i32.and (local.get $tt) (i32.const 63)))
                (i32.const 3))))
          ;; P(t) / P(t−1) = B(n, t) · c · P(pn + t − tOld, pt) / den, den += 1; v is P(t) / P(lo)
          (local.set $x (i32.const 1))
          (loop $win
            (local.set $v
              (f64.mul (local.get $v)
                (f64.div
                  (f64.mul (f64.mul (f64.load (local.get $tp)) (local.get $c)) (f64.load (local.get $pp)))
                  (local.get $den))))
            (local.set $den (f64.add (local.get $den) (f64.const 1)))
            (f64.store (i32.add (local.get $lp) (i32.shl (local.get $x) (i32.const 3))) (local.get $v))
            (local.set $sum (f64.add (local.get $sum) (local.get $v)))
            (local.set $tiny (i32.or (local.get $tiny) (f64.lt (local.get $v) (f64.const 1e-280))))
            (if (i32.lt_s (local.get $x) (local.get $m))
              (then
                (local.set $x (i32.add (local.get $x) (i32.const 1)))
                (local.set $tt (i32.add (local.get $tt) (i32.const 1)))
                (local.set $pp (i32.add (local.get $pp) (i32.const 8)))
                (local.set $tp (i32.add (local.get $tp) (i32.const 8)))
                ;; t crossed into the next chunk of 64 columns: its row of B starts elsewhere
                (if (i32.eqz (i32.and (local.get $tt) (i32.const 63)))
                  (then
                    (local.set $j (i32.shr_s (local.get $tt) (i32.const 6)))
                    (local.set $tp
                      (i32.add (i32.load (i32.add (local.get $dir) (i32.mul (local.get $j) (i32.const 20))))
                        (i32.shl
                          (i32.shl (i32.sub (local.get $nn) (i32.shl (local.get $j) (i32.const 6))) (i32.const 6))
                          (i32.const 3))))))
                (br $win))))
          ;; out of range (or NaN): the log path, in JavaScript
          (if (i32.or (i32.eqz (f64.lt (local.get $sum) (f64.const 1e280))) (local.get $tiny))
            (then (local.set $ret (local.get $q)) (br $out)))
          ;; u = Rng.next() · sum: two xoshiro128** steps, 27 + 26 bits
          (local.set $r1
            (i32.shr_u
              (i32.mul (i32.rotl (i32.mul (local.get $s1) (i32.const 5)) (i32.const 7)) (i32.const 9))
              (i32.const 5)))
          (local.set $tmp (i32.shl (local.get $s1) (i32.const 9)))
          (local.set $s2 (i32.xor (local.get $s2) (local.get $s0)))
          (local.set $s3 (i32.xor (local.get $s3) (local.get $s1)))
          (local.set $s1 (i32.xor (local.get $s1) (local.get $s2)))
          (local.set $s0 (i32.xor (local.get $s0) (local.get $s3)))
          (local.set $s2 (i32.xor (local.get $s2) (local.get $tmp)))
          (local.set $s3 (i32.rotl (local.get $s3) (i32.const 11)))
          (local.set $r2
            (i32.shr_u
              (i32.mul (i32.rotl (i32.mul (local.get $s1) (i32.const 5)) (i32.const 7)) (i32.const 9))
              (i32.const 6)))
          (local.set $tmp (i32.shl (local.get $s1) (i32.const 9)))
          (local.set $s2 (i32.xor (local.get $s2) (local.get $s0)))
          (local.set $s3 (i32.xor (local.get $s3) (local.get $s1)))
          (local.set $s1 (i32.xor (local.get $s1) (local.get $s2)))
          (local.set $s0 (i32.xor (local.get $s0) (local.get $s3)))
          (local.set $s2 (i32.xor (local.get $s2) (local.get $tmp)))
          (local.set $s3 (i32.rotl (local.get $s3) (i32.const 11)))
          (local.set $u
            (f64.mul
              (f64.div
                (f64.add
                  (f64.mul (f64.convert_i32_u (local.get $r1)) (f64.const 67108864))
                  (f64.convert_i32_u (local.get $r2)))
                (f64.const 9007199254740992))
              (local.get $sum)))
          ;; x = the first j < m with u − lp[0] − … − lp[j−1] < lp[j], else m, without a branch on the data
          (local.set $x (i32.const 0))
          (local.set $on (i32.const 1))
          (local.set $j (i32.const 0))
          (local.set $a (local.get $lp))
          (loop $sel
            (local.set $l (f64.load (local.get $a)))
            (local.set $on (i32.and (local.get $on) (f64.ge (local.get $u) (local.get $l))))
            (local.set $x (i32.add (local.get $x) (local.get $on)))
            (local.set $u (f64.sub (local.get $u) (local.get $l)))
            (local.set $a (i32.add (local.get $a) (i32.const 8)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br_if $sel (i32.lt_s (local.get $j) (local.get $m))))
          ;; t = lo + x; tSum of the node, n and nSum of the parent move by the difference
          (local.set $d (i32.sub (i32.add (local.get $lo) (local.get $x)) (local.get $tOld)))
          (i32.store (i32.add (local.get $t) (i32.shl (local.get $ik) (i32.const 2)))
            (i32.add (local.get $lo) (local.get $x)))
          (local.set $a (i32.add (local.get $tSum) (i32.shl (i32.load offset=8 (local.get $rec)) (i32.const 2))))
          (i32.store (local.get $a) (i32.add (i32.load (local.get $a)) (local.get $d)))
          (local.set $a (i32.add (local.get $n) (i32.shl (local.get $pk) (i32.const 2))))
          (i32.store (local.get $a) (i32.add (i32.load (local.get $a)) (local.get $d)))
          (local.set $a (i32.add (local.get $nSum) (i32.shl (local.get $p) (i32.const 2))))
          (i32.store (local.get $a) (i32.add (i32.load (local.get $a)) (local.get $d))))
        (local.set $q (i32.add (local.get $q) (i32.const 6)))
        (br $pair)))
    (i32.store offset=0 (local.get $rng) (local.get $s0))
    (i32.store offset=4 (local.get $rng) (local.get $s1))
    (i32.store offset=8 (local.get $rng) (local.get $s2))
    (i32.store offset=12 (local.get $rng) (local.get $s3))
    (local.get $ret))

  ;; Step 3 below the root, top-down (Eqs. 12–14): p = (n + c · p_parent) / (N + c) for nodes 1 .. size − 1,
  ;; as inv = 1 / (N + c) and (n_k + c · p_parent,k) · inv, added to the running sums. The root's estimate is
  ;; in pCur already.
  (func (export "estimates")
    (param $size i32) (param $K i32) (param $n i32) (param $nSum i32) (param $parent i32) (param $conc i32)
    (param $cVal i32) (param $pCur i32) (param $pSum i32)
    (local $i i32) (local $k i32) (local $io i32) (local $po i32) (local $a i32) (local $c f64) (local $inv f64) (local $v f64)
    (local.set $i (i32.const 1))
    (local.set $io (local.get $K))
    (block $done
      (loop $node
        (br_if $done (i32.ge_s (local.get $i) (local.get $size)))
        (local.set $c
          (f64.load
            (i32.add (local.get $cVal)
              (i32.shl (i32.load (i32.add (local.get $conc) (i32.shl (local.get $i) (i32.const 2)))) (i32.const 3)))))
        (local.set $inv
          (f64.div (f64.const 1)
            (f64.add
              (f64.convert_i32_s (i32.load (i32.add (local.get $nSum) (i32.shl (local.get $i) (i32.const 2)))))
              (local.get $c))))
        (local.set $po
          (i32.mul (i32.load (i32.add (local.get $parent) (i32.shl (local.get $i) (i32.const 2)))) (local.get $K)))
        (local.set $k (i32.const 0))
        (loop $value
          (local.set $v
            (f64.mul
              (f64.add
                (f64.convert_i32_s
                  (i32.load (i32.add (local.get $n) (i32.shl (i32.add (local.get $io) (local.get $k)) (i32.const 2)))))
                (f64.mul (local.get $c)
                  (f64.load
                    (i32.add (local.get $pCur) (i32.shl (i32.add (local.get $po) (local.get $k)) (i32.const 3))))))
              (local.get $inv)))
          (local.set $a (i32.shl (i32.add (local.get $io) (local.get $k)) (i32.const 3)))
          (f64.store (i32.add (local.get $pCur) (local.get $a)) (local.get $v))
          (f64.store (i32.add (local.get $pSum) (local.get $a))
            (f64.add (f64.load (i32.add (local.get $pSum) (local.get $a))) (local.get $v)))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br_if $value (i32.lt_s (local.get $k) (local.get $K))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (local.set $io (i32.add (local.get $io) (local.get $K)))
        (br $node))))
)
