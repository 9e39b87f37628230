;; Byte routines for the brief's diff, run over one chunk of ASCII text at a time (diff-scan.ts
;; drives them; scripts/generate-wasm.mjs turns this file into diff-scan-wasm.ts).
;;
;; Why WebAssembly: a 20 MiB diff must be JSON-escaped (for its id and for --json) and searched
;; for its path lines. In JavaScript the escape (JSON.stringify of each decoded chunk) costs ~75 ms
;; here and the search ~30 ms; both are byte scans that 16-byte SIMD compares do in a few ms.
;; Only ASCII chunks come here: the JavaScript path keeps every other text, so these routines need
;; only the ASCII half of the rules they implement, and a property test holds them to it.
;;
;; Memory: the caller places the chunk, the output areas and the prefix table; these functions
;; only read [src, src + len) (plus up to 16 bytes past it, never used) and write their output.
(module
  (memory (export "memory") 1)

  ;; At 0, the hex digits of the \u00XX escape; at 16, for each control character, the letter of
  ;; its two-character escape (\b \t \n \f \r), or 0 for the \u00XX ones. The caller keeps
  ;; addresses 0 to 47 free.
  (data (i32.const 0) "0123456789abcdef")
  (data (i32.const 16) "\00\00\00\00\00\00\00\00btn\00fr\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00")

  ;; How many lines the last escape with a prefix table found.
  (global $linesFound (mut i32) (i32.const 0))
  (func (export "linesFound") (result i32) (global.get $linesFound))

  ;; JSON.stringify's escape of the ASCII bytes [src, src + len), quotes left out, written at dst
  ;; (room for 6 * len + 16 bytes); returns the bytes written. Line breaks are read as Python's
  ;; text mode reads them: \r\n and a lone \r both become \n (escaped \n). A chunk never ends
  ;; between the \r and the \n of one break.
  ;;
  ;; With a prefix table ($table not 0), the same pass also finds the lines that begin with one
  ;; of its prefixes: the escape stops at every line break anyway. The table holds an i32 count
  ;; (1 to 4), then per prefix an i32 length (1 to 16) and 16 bytes. Each line found is written
  ;; at $out as two i32s, its start and the end of its body (the next line break, or the chunk's
  ;; end), as offsets from $src (room: 4 * len + 8 bytes, since lines found are separated by at
  ;; least one break); linesFound says how many. [src, src + len) starts a line.
  (func (export "escape") (param $src i32) (param $len i32) (param $dst i32) (param $table i32) (param $out i32) (result i32)
    (local $i i32) (local $o i32) (local $end i32) (local $c i32) (local $v v128) (local $special v128)
    (local $k i32) (local $head i32) (local $h0 i32) (local $h1 i32) (local $h2 i32) (local $h3 i32)
    (local $m0 i32) (local $m1 i32) (local $m2 i32) (local $m3 i32)
    (local.set $i (local.get $src))
    (local.set $o (local.get $dst))
    (local.set $end (i32.add (local.get $src) (local.get $len)))
    (local.set $k (local.get $out))
    (if (local.get $table)
      (then
        ;; Each prefix's first two bytes ($m masks the second off a one-byte prefix; unused slots
        ;; repeat the first prefix), to pass most lines by without a call.
        (local.set $m0 (call $headMask (local.get $table) (i32.const 0)))
        (local.set $m1 (call $headMask (local.get $table) (i32.const 1)))
        (local.set $m2 (call $headMask (local.get $table) (i32.const 2)))
        (local.set $m3 (call $headMask (local.get $table) (i32.const 3)))
        (local.set $h0 (i32.and (i32.load16_u offset=4 (call $slot (local.get $table) (i32.const 0))) (local.get $m0)))
        (local.set $h1 (i32.and (i32.load16_u offset=4 (call $slot (local.get $table) (i32.const 1))) (local.get $m1)))
        (local.set $h2 (i32.and (i32.load16_u offset=4 (call $slot (local.get $table) (i32.const 2))) (local.get $m2)))
        (local.set $h3 (i32.and (i32.load16_u offset=4 (call $slot (local.get $table) (i32.const 3))) (local.get $m3)))
        (local.set $k (call $visit (local.get $src) (local.get $src) (local.get $end) (local.get $table) (local.get $k)))))
    (loop $next
      (if (i32.lt_u (local.get $i) (local.get $end))
        (then
          (if (i32.le_u (i32.add (local.get $i) (i32.const 16)) (local.get $end))
            (then
              ;; A whole block: copy it, then keep only the bytes before its first special one.
              (local.set $v (v128.load (local.get $i)))
              (local.set $special
                (v128.or
                  (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 0x20)))
                  (v128.or
                    (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x22)))
                    (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5c))))))
              (v128.store (local.get $o) (local.get $v))
              (if (i32.eqz (v128.any_true (local.get $special)))
                (then
                  (local.set $i (i32.add (local.get $i) (i32.const 16)))
                  (local.set $o (i32.add (local.get $o) (i32.const 16)))
                  (br $next)))
              (local.set $c (i32.ctz (i8x16.bitmask (local.get $special))))
              (local.set $i (i32.add (local.get $i) (local.get $c)))
              (local.set $o (i32.add (local.get $o) (local.get $c))))
            (else
              ;; The tail: one byte at a time.
              (local.set $c (i32.load8_u (local.get $i)))
              (if (i32.and
                    (i32.ge_u (local.get $c) (i32.const 0x20))
                    (i32.and (i32.ne (local.get $c) (i32.const 0x22)) (i32.ne (local.get $c) (i32.const 0x5c))))
                (then
                  (i32.store8 (local.get $o) (local.get $c))
                  (local.set $i (i32.add (local.get $i) (i32.const 1)))
                  (local.set $o (i32.add (local.get $o) (i32.const 1)))
                  (br $next)))))
          ;; $i is at a byte that needs an escape.
          (local.set $c (i32.load8_u (local.get $i)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (if (i32.eq (local.get $c) (i32.const 0x0d))
            (then
              (local.set $c (i32.const 0x0a))
              (if (i32.lt_u (local.get $i) (local.get $end))
                (then
                  (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 0x0a))
                    (then (local.set $i (i32.add (local.get $i) (i32.const 1)))))))))
          (if (i32.eq (local.get $c) (i32.const 0x0a))
            (then ;; the common one, without a call
              (i32.store16 (local.get $o) (i32.const 0x6e5c)) ;; \n
              (local.set $o (i32.add (local.get $o) (i32.const 2))))
            (else (local.set $o (call $escapeOne (local.get $c) (local.get $o)))))
          ;; After a line break (\r and \r\n read as \n by now) a line starts at $i.
          (if (i32.and (i32.ne (local.get $table) (i32.const 0)) (i32.lt_u (local.get $i) (local.get $end)))
            (then
              ;; (\n first: nearly every break is one; calls are not inlined, so none here.)
              (if (i32.or
                    (i32.eq (local.get $c) (i32.const 0x0a))
                    (i32.or
                      (i32.lt_u (i32.sub (local.get $c) (i32.const 0x0b)) (i32.const 2))
                      (i32.lt_u (i32.sub (local.get $c) (i32.const 0x1c)) (i32.const 3))))
                (then
                  (local.set $head (i32.load16_u (local.get $i))) ;; the line's first two bytes
                  (if (i32.or
                        (i32.or
                          (i32.eq (i32.and (local.get $head) (local.get $m0)) (local.get $h0))
                          (i32.eq (i32.and (local.get $head) (local.get $m1)) (local.get $h1)))
                        (i32.or
                          (i32.eq (i32.and (local.get $head) (local.get $m2)) (local.get $h2))
                          (i32.eq (i32.and (local.get $head) (local.get $m3)) (local.get $h3))))
                    (then
                      (local.set $k
                        (call $visit (local.get $src) (local.get $i) (local.get $end) (local.get $table) (local.get $k)))))))))
          (br $next))))
    (global.set $linesFound (i32.shr_u (i32.sub (local.get $k) (local.get $out)) (i32.const 3)))
    (i32.sub (local.get $o) (local.get $dst)))

  ;; Writes the escape of the byte $c (a control character, " or \) at $o; returns the new end.
  (func $escapeOne (param $c i32) (param $o i32) (result i32)
    (local $short i32)
    (i32.store8 (local.get $o) (i32.const 0x5c))
    (local.set $short
      (if (result i32) (i32.lt_u (local.get $c) (i32.const 0x20))
        (then (i32.load8_u offset=16 (local.get $c)))
        (else (local.get $c)))) ;; " and \ escape as themselves
    (if (local.get $short)
      (then
        (i32.store8 offset=1 (local.get $o) (local.get $short))
        (return (i32.add (local.get $o) (i32.const 2)))))
    ;; \u00XX, lower-case hex as JSON.stringify writes it.
    (i32.store offset=1 (local.get $o) (i32.const 0x30303075)) ;; "u000", the last digit overwritten
    (i32.store8 offset=4 (local.get $o) (i32.load8_u (i32.shr_u (local.get $c) (i32.const 4))))
    (i32.store8 offset=5 (local.get $o) (i32.load8_u (i32.and (local.get $c) (i32.const 15))))
    (i32.add (local.get $o) (i32.const 6)))

  ;; True for the ASCII bytes Python's str.splitlines() breaks at: \n \v \f \r \x1c \x1d \x1e.
  (func $isBreak (param $c i32) (result i32)
    (i32.or
      (i32.or (i32.eq (local.get $c) (i32.const 0x0a)) (i32.eq (local.get $c) (i32.const 0x0d)))
      (i32.or
        (i32.lt_u (i32.sub (local.get $c) (i32.const 0x0b)) (i32.const 2))
        (i32.lt_u (i32.sub (local.get $c) (i32.const 0x1c)) (i32.const 3)))))

  ;; 0xffff, or 0xff for a one-byte prefix: the bytes of a line's first two that slot $n compares.
  (func $headMask (param $table i32) (param $n i32) (result i32)
    (select (i32.const 0xff) (i32.const 0xffff)
      (i32.eq (i32.load (call $slot (local.get $table) (local.get $n))) (i32.const 1))))

  ;; The table's slot $n, or slot 0 past the count.
  (func $slot (param $table i32) (param $n i32) (result i32)
    (if (i32.ge_u (local.get $n) (i32.load (local.get $table))) (then (local.set $n (i32.const 0))))
    (i32.add (i32.add (local.get $table) (i32.const 4)) (i32.mul (local.get $n) (i32.const 20))))

  ;; When the line starting at $at (a line start) begins with a prefix of the table, records it
  ;; at $k and returns $k + 8; otherwise returns $k.
  (func $visit (param $src i32) (param $at i32) (param $end i32) (param $table i32) (param $k i32) (result i32)
    (local $n i32) (local $slot i32) (local $size i32) (local $j i32) (local $stop i32) (local $bits i32) (local $block v128)
    (block $found
      (loop $prefixes
        (if (i32.ge_u (local.get $n) (i32.load (local.get $table))) (then (return (local.get $k))))
        (local.set $slot (i32.add (i32.add (local.get $table) (i32.const 4)) (i32.mul (local.get $n) (i32.const 20))))
        (local.set $size (i32.load (local.get $slot)))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br_if $prefixes (i32.gt_u (i32.add (local.get $at) (local.get $size)) (local.get $end)))
        (local.set $j (i32.const 0))
        (block $differs
          (loop $bytes
            (br_if $found (i32.eq (local.get $j) (local.get $size)))
            (br_if $differs
              (i32.ne
                (i32.load8_u (i32.add (local.get $at) (local.get $j)))
                (i32.load8_u offset=4 (i32.add (local.get $slot) (local.get $j)))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $bytes)))
        (br $prefixes)))
    ;; The body ends at the next break: 16 bytes at a time, then one at a time.
    (local.set $stop (local.get $at))
    (block $ended
      (loop $blocks
        (if (i32.le_u (i32.add (local.get $stop) (i32.const 16)) (local.get $end))
          (then
            (local.set $block (v128.load (local.get $stop)))
            (local.set $bits (i8x16.bitmask (v128.or
                  (v128.or
                    (i8x16.eq (local.get $block) (i8x16.splat (i32.const 0x0a)))
                    (i8x16.eq (local.get $block) (i8x16.splat (i32.const 0x0d))))
                  (v128.or
                    (i8x16.lt_u (i8x16.sub (local.get $block) (i8x16.splat (i32.const 0x0b))) (i8x16.splat (i32.const 2)))
                    (i8x16.lt_u (i8x16.sub (local.get $block) (i8x16.splat (i32.const 0x1c))) (i8x16.splat (i32.const 3)))))))
            (if (local.get $bits)
              (then
                (local.set $stop (i32.add (local.get $stop) (i32.ctz (local.get $bits))))
                (br $ended)))
            (local.set $stop (i32.add (local.get $stop) (i32.const 16)))
            (br $blocks))))
      (loop $bytes
        (br_if $ended (i32.ge_u (local.get $stop) (local.get $end)))
        (br_if $ended (call $isBreak (i32.load8_u (local.get $stop))))
        (local.set $stop (i32.add (local.get $stop) (i32.const 1)))
        (br $bytes)))
    (i32.store (local.get $k) (i32.sub (local.get $at) (local.get $src)))
    (i32.store offset=4 (local.get $k) (i32.sub (local.get $stop) (local.get $src)))
    (i32.add (local.get $k) (i32.const 8)))

  ;; Adds the paths named by lines that begin with `diff --git `, `--- ` or `+++ ` (as escape
  ;; finds them, with these prefixes: the $count [start, end) pairs of offsets from $src at
  ;; $lines) to the paths kept since pathsBegin; returns how many are kept. This is the
  ;; ASCII half of diff-paths.ts readPathLine, held to it by a property test:
  ;;   `diff --git A B`: exactly two sides (split at Python whitespace, after stripping it); the
  ;;     first that names a path;
  ;;   `--- X` / `+++ X`: X up to its first tab, stripped;
  ;;   a side names a path unless it is empty or /dev/null, after dropping one a/ or b/ (and is
  ;;     not empty after that).
  ;; Inside an ASCII line (no break) Python's whitespace is the tab, \x1f and the space.
  (func (export "gitDiffPaths") (param $src i32) (param $lines i32) (param $count i32) (result i32)
    (local $j i32) (local $k i32) (local $at i32) (local $end i32) (local $p i32) (local $q i32)
    (local $split i32) (local $second i32) (local $path i64)
    (loop $lines
      (if (i32.lt_u (local.get $j) (local.get $count))
        (then
          (local.set $at (i32.add (local.get $src) (i32.load (i32.add (local.get $lines) (i32.shl (local.get $j) (i32.const 3))))))
          (local.set $end (i32.add (local.get $src) (i32.load offset=4 (i32.add (local.get $lines) (i32.shl (local.get $j) (i32.const 3))))))
          (local.set $j (i32.add (local.get $j) (i32.const 1)))
          (local.set $path (i64.const -1))
          (if (i32.eq (i32.load8_u (local.get $at)) (i32.const 0x64)) ;; d
            (then
              ;; Strip, then split into exactly two sides.
              (local.set $p (call $skipSpace (i32.add (local.get $at) (i32.const 11)) (local.get $end)))
              (local.set $q (call $trimSpace (local.get $p) (local.get $end)))
              (local.set $split (call $skipWord (local.get $p) (local.get $q)))
              (local.set $second (call $skipSpace (local.get $split) (local.get $q)))
              (if (i32.and
                    (i32.and (i32.lt_u (local.get $p) (local.get $split)) (i32.lt_u (local.get $split) (local.get $q)))
                    (i32.eq (call $skipWord (local.get $second) (local.get $q)) (local.get $q)))
                (then
                  (local.set $path (call $side (local.get $p) (local.get $split)))
                  (if (i64.eq (local.get $path) (i64.const -1))
                    (then (local.set $path (call $side (local.get $second) (local.get $q))))))))
            (else
              ;; Up to the first tab, stripped.
              (local.set $p (i32.add (local.get $at) (i32.const 4)))
              (local.set $q (local.get $p))
              (block $tab
                (loop $scan
                  (br_if $tab (i32.ge_u (local.get $q) (local.get $end)))
                  (br_if $tab (i32.eq (i32.load8_u (local.get $q)) (i32.const 0x09)))
                  (local.set $q (i32.add (local.get $q) (i32.const 1)))
                  (br $scan)))
              (local.set $p (call $skipSpace (local.get $p) (local.get $q)))
              (local.set $path (call $side (local.get $p) (call $trimSpace (local.get $p) (local.get $q))))))
          (if (i64.ne (local.get $path) (i64.const -1))
            (then
              (call $keep
                (i32.wrap_i64 (local.get $path))
                (i32.wrap_i64 (i64.shr_u (local.get $path) (i64.const 32))))))
          (br $lines))))
    (global.get $records))

  ;; (Python whitespace inside an ASCII line: the tab, \x1f, the space.)
  ;; The first position in [p, end) that is not whitespace, or end.
  (func $skipSpace (param $p i32) (param $end i32) (result i32)
    (local $c i32)
    (loop $more
      (if (i32.lt_u (local.get $p) (local.get $end))
        (then
          (local.set $c (i32.load8_u (local.get $p)))
          (if (i32.or (i32.eq (local.get $c) (i32.const 0x20))
              (i32.or (i32.eq (local.get $c) (i32.const 0x09)) (i32.eq (local.get $c) (i32.const 0x1f))))
            (then (local.set $p (i32.add (local.get $p) (i32.const 1))) (br $more))))))
    (local.get $p))

  ;; The first position in [p, end) that is whitespace, or end.
  (func $skipWord (param $p i32) (param $end i32) (result i32)
    (local $c i32)
    (loop $more
      (if (i32.lt_u (local.get $p) (local.get $end))
        (then
          (local.set $c (i32.load8_u (local.get $p)))
          (if (i32.eqz (i32.or (i32.eq (local.get $c) (i32.const 0x20))
              (i32.or (i32.eq (local.get $c) (i32.const 0x09)) (i32.eq (local.get $c) (i32.const 0x1f)))))
            (then (local.set $p (i32.add (local.get $p) (i32.const 1))) (br $more))))))
    (local.get $p))

  ;; The end of [p, end) once its trailing whitespace is dropped.
  (func $trimSpace (param $p i32) (param $end i32) (result i32)
    (local $c i32)
    (loop $more
      (if (i32.gt_u (local.get $end) (local.get $p))
        (then
          (local.set $c (i32.load8_u (i32.sub (local.get $end) (i32.const 1))))
          (if (i32.or (i32.eq (local.get $c) (i32.const 0x20))
              (i32.or (i32.eq (local.get $c) (i32.const 0x09)) (i32.eq (local.get $c) (i32.const 0x1f))))
            (then (local.set $end (i32.sub (local.get $end) (i32.const 1))) (br $more))))))
    (local.get $end))

  ;; The path a side [p, end) names, as start | end << 32, or -1 for none.
  (func $side (param $p i32) (param $end i32) (result i64)
    (if (i32.eq (local.get $p) (local.get $end)) (then (return (i64.const -1))))
    (if (i32.eq (i32.sub (local.get $end) (local.get $p)) (i32.const 9))
      (then
        (if (i32.and
              (i64.eq (i64.load (local.get $p)) (i64.const 0x6c756e2f7665642f)) ;; "/dev/nul"
              (i32.eq (i32.load8_u offset=8 (local.get $p)) (i32.const 0x6c))) ;; "l"
          (then (return (i64.const -1))))))
    (if (i32.ge_u (i32.sub (local.get $end) (local.get $p)) (i32.const 2))
      (then
        (if (i32.and
              (i32.lt_u (i32.sub (i32.load8_u (local.get $p)) (i32.const 0x61)) (i32.const 2)) ;; a or b
              (i32.eq (i32.load8_u offset=1 (local.get $p)) (i32.const 0x2f))) ;; /
          (then (local.set $p (i32.add (local.get $p) (i32.const 2)))))))
    (if (i32.eq (local.get $p) (local.get $end)) (then (return (i64.const -1))))
    (i64.or (i64.extend_i32_u (local.get $p)) (i64.shl (i64.extend_i32_u (local.get $end)) (i64.const 32))))

;; The paths kept: records of an i32 length and the path's bytes, padded to 4 bytes, laid end
  ;; to end from the arena's start. The caller keeps room after $arenaEnd for every path a chunk
  ;; can add (twice its size) plus 16 bytes, growing the memory between calls.
  (global $arenaStart (mut i32) (i32.const 0))
  (global $arenaEnd (mut i32) (i32.const 0))
  (global $records (mut i32) (i32.const 0))
  (global $last (mut i32) (i32.const -1))

  ;; Starts keeping paths at $arena, with none kept.
  (func (export "pathsBegin") (param $arena i32)
    (global.set $arenaStart (local.get $arena))
    (global.set $arenaEnd (local.get $arena))
    (global.set $records (i32.const 0))
    (global.set $last (i32.const -1)))

  (func (export "arenaEnd") (result i32) (global.get $arenaEnd))

  ;; Keeps the path [p, q) unless it equals the one kept last (the three header lines of one
  ;; file name it three times); duplicates further apart go when the paths are sorted.
  (func $keep (param $p i32) (param $q i32)
    (local $size i32) (local $at i32)
    (local.set $size (i32.sub (local.get $q) (local.get $p)))
    (if (i32.ne (global.get $last) (i32.const -1))
      (then
        (if (i32.eqz (call $compare (global.get $last) (local.get $p) (local.get $size)))
          (then (return)))))
    (local.set $at (global.get $arenaEnd))
    (i32.store (local.get $at) (local.get $size))
    (memory.copy (i32.add (local.get $at) (i32.const 4)) (local.get $p) (local.get $size))
    (global.set $last (local.get $at))
    (global.set $arenaEnd
      (i32.and (i32.add (i32.add (local.get $at) (local.get $size)) (i32.const 7)) (i32.const -4)))
    (global.set $records (i32.add (global.get $records) (i32.const 1))))

  ;; The record at $a against the path [p, p + size): -1, 0 or 1 as its bytes sort (unsigned
  ;; bytes: code-point order for ASCII) before, equal to or after them.
  (func $compare (param $a i32) (param $p i32) (param $size i32) (result i32)
    (local $n i32) (local $i i32) (local $diff i32) (local $x i32) (local $y i32)
    (local.set $n (i32.load (local.get $a)))
    (local.set $a (i32.add (local.get $a) (i32.const 4)))
    (if (i32.lt_u (local.get $size) (local.get $n))
      (then (local.set $n (local.get $size))))
    ;; The common length, 16 bytes at a time (both may be read up to 15 bytes past their ends).
    (block $same
      (loop $blocks
        (br_if $same (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $diff
          (i32.xor
            (i8x16.bitmask
              (i8x16.eq
                (v128.load (i32.add (local.get $a) (local.get $i)))
                (v128.load (i32.add (local.get $p) (local.get $i)))))
            (i32.const 0xffff)))
        (if (local.get $diff)
          (then
            (local.set $i (i32.add (local.get $i) (i32.ctz (local.get $diff))))
            (br_if $same (i32.ge_u (local.get $i) (local.get $n)))
            (local.set $x (i32.load8_u (i32.add (local.get $a) (local.get $i))))
            (local.set $y (i32.load8_u (i32.add (local.get $p) (local.get $i))))
            (return (i32.sub (i32.gt_u (local.get $x) (local.get $y)) (i32.lt_u (local.get $x) (local.get $y))))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $blocks)))
    ;; Equal as far as the shorter goes: the shorter sorts first.
    (local.set $x (i32.load (i32.sub (local.get $a) (i32.const 4))))
    (i32.sub (i32.gt_u (local.get $x) (local.get $size)) (i32.lt_u (local.get $x) (local.get $size))))

  ;; The paths kept, sorted and without duplicates, each followed by \n, written at $out (room:
  ;; the arena's size); $index has room for two i32s per path. Returns the bytes written.
  (func (export "pathsFinish") (param $index i32) (param $out i32) (result i32)
    (local $n i32) (local $at i32) (local $i i32) (local $sorted i32) (local $o i32)
    (local $record i32) (local $size i32) (local $previous i32)
    (local.set $n (global.get $records))
    (local.set $at (global.get $arenaStart))
    (loop $walk
      (if (i32.lt_u (local.get $i) (local.get $n))
        (then
          (i32.store (i32.add (local.get $index) (i32.shl (local.get $i) (i32.const 2))) (local.get $at))
          (local.set $at
            (i32.and (i32.add (i32.add (local.get $at) (i32.load (local.get $at))) (i32.const 7)) (i32.const -4)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $walk))))
    (local.set $sorted
      (call $mergeSort (local.get $index) (i32.add (local.get $index) (i32.shl (local.get $n) (i32.const 2))) (local.get $n)))
    (local.set $o (local.get $out))
    (local.set $previous (i32.const -1))
    (local.set $i (i32.const 0))
    (loop $emit
      (if (i32.lt_u (local.get $i) (local.get $n))
        (then
          (local.set $record (i32.load (i32.add (local.get $sorted) (i32.shl (local.get $i) (i32.const 2)))))
          (local.set $size (i32.load (local.get $record)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (if (i32.ne (local.get $previous) (i32.const -1))
            (then
              (br_if $emit
                (i32.eqz (call $compare (local.get $previous) (i32.add (local.get $record) (i32.const 4)) (local.get $size))))))
          (local.set $previous (local.get $record))
          (memory.copy (local.get $o) (i32.add (local.get $record) (i32.const 4)) (local.get $size))
          (i32.store8 (i32.add (local.get $o) (local.get $size)) (i32.const 0x0a))
          (local.set $o (i32.add (i32.add (local.get $o) (local.get $size)) (i32.const 1)))
          (br $emit))))
    (i32.sub (local.get $o) (local.get $out)))

  ;; Sorts the $n record addresses at $a by their paths (a stable bottom-up merge sort, $b the
  ;; same size as scratch); returns where the sorted list ended up ($a or $b).
  (func $mergeSort (param $a i32) (param $b i32) (param $n i32) (result i32)
    (local $width i32) (local $lo i32) (local $mid i32) (local $hi i32)
    (local $i i32) (local $j i32) (local $k i32) (local $swap i32) (local $x i32) (local $y i32)
    (local.set $width (i32.const 1))
    (loop $passes
      (if (i32.lt_u (local.get $width) (local.get $n))
        (then
          (local.set $lo (i32.const 0))
          (loop $runs
            (if (i32.lt_u (local.get $lo) (local.get $n))
              (then
                (local.set $mid (select (i32.add (local.get $lo) (local.get $width)) (local.get $n)
                  (i32.lt_u (i32.add (local.get $lo) (local.get $width)) (local.get $n))))
                (local.set $hi (select (i32.add (local.get $mid) (local.get $width)) (local.get $n)
                  (i32.lt_u (i32.add (local.get $mid) (local.get $width)) (local.get $n))))
                (local.set $i (local.get $lo))
                (local.set $j (local.get $mid))
                (local.set $k (local.get $lo))
                (loop $merge
                  (if (i32.lt_u (local.get $k) (local.get $hi))
                    (then
                      (local.set $x (i32.load (i32.add (local.get $a) (i32.shl (local.get $i) (i32.const 2)))))
                      (local.set $y (i32.load (i32.add (local.get $a) (i32.shl (local.get $j) (i32.const 2)))))
                      ;; Take the left one while it does not sort after the right (wasm's
                      ;; `and` evaluates both sides, so the compare needs its own if).
                      (if (if (result i32) (i32.ge_u (local.get $i) (local.get $mid))
                            (then (i32.const 0))
                            (else
                              (if (result i32) (i32.ge_u (local.get $j) (local.get $hi))
                                (then (i32.const 1))
                                (else
                                  (i32.le_s
                                    (call $compare (local.get $x) (i32.add (local.get $y) (i32.const 4)) (i32.load (local.get $y)))
                                    (i32.const 0))))))
                        (then
                          (i32.store (i32.add (local.get $b) (i32.shl (local.get $k) (i32.const 2))) (local.get $x))
                          (local.set $i (i32.add (local.get $i) (i32.const 1))))
                        (else
                          (i32.store (i32.add (local.get $b) (i32.shl (local.get $k) (i32.const 2))) (local.get $y))
                          (local.set $j (i32.add (local.get $j) (i32.const 1)))))
                      (local.set $k (i32.add (local.get $k) (i32.const 1)))
                      (br $merge))))
                (local.set $lo (local.get $hi))
                (br $runs))))
          (local.set $swap (local.get $a))
          (local.set $a (local.get $b))
          (local.set $b (local.get $swap))
          (local.set $width (i32.shl (local.get $width) (i32.const 1)))
          (br $passes))))
    (local.get $a))
)
