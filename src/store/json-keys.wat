;; Whether any object of a JSON text that JSON.parse accepted may hold the same key twice, read
;; from its UTF-8 bytes in one pass, chunk by chunk (json-keys.ts feeds it). It proves the
;; common case, "no key repeats", at the speed of a byte loop that needs no warming up; anything
;; it cannot prove it leaves to the exact JavaScript check (json-scan.ts), which then decides.
;;
;; Each key is hashed (FNV-1a over its bytes) and compared with the hashes of the keys before it
;; in the same object. Equal keys have equal bytes (a key holding an escape is not proved, and
;; valid UTF-8 spells a text one way only), so equal keys always meet equal hashes: two keys
;; with one hash answer "not proved", never "proved" — a collision only costs the exact check.
;; Also not proved: an object of more than 64 keys (so the comparisons stay linear in the file),
;; more than 4,096 levels of nesting, more than 16,384 keys open at once.
;;
;; `compact` reads a piece the same way and also writes it without its blanks (a first touch of
;; another writer's ledger: ledger-sliced.ts parses and keeps that form), refusing what it cannot
;; prove the same text: a byte of 0x80 or more, and a blank between two bytes that would join
;; into one token once it is gone (`1 2` would read `12`; valid JSON never holds that).
;;
;; Memory: 0..16383 the open containers, one i32 each (where its keys' hashes start, or -1 for a
;; list); 16384..81919 the hashes of the keys of the open objects; the caller's chunk at 81920;
;; past the first 6 pages whatever the caller places there (`compact` reads and writes there).
(module
  (memory (export "memory") 6)

  (global $depth (mut i32) (i32.const 0))
  (global $hashTop (mut i32) (i32.const 0))
  ;; 0: between tokens; 1: in a string; 2: in a string, right after a backslash.
  (global $state (mut i32) (i32.const 0))
  (global $inKey (mut i32) (i32.const 0))
  (global $keyNext (mut i32) (i32.const 0))
  (global $hash (mut i32) (i32.const 0))
  ;; For `compact`: the last byte written between tokens was part of a word (a number, `true`…),
  ;; and blanks were dropped since.
  (global $lastWord (mut i32) (i32.const 0))
  (global $gap (mut i32) (i32.const 0))
  ;; For `compact`: the depth inside the records' list (set by `records`), or -1.
  (global $listDepth (mut i32) (i32.const -1))

  ;; Starts a new text.
  (func (export "reset")
    (global.set $depth (i32.const 0))
    (global.set $hashTop (i32.const 0))
    (global.set $state (i32.const 0))
    (global.set $inKey (i32.const 0))
    (global.set $keyNext (i32.const 0))
    (global.set $hash (i32.const 0))
    (global.set $lastWord (i32.const 0))
    (global.set $gap (i32.const 0))
    (global.set $listDepth (i32.const -1)))

  ;; The text read so far ends inside a list whose elements are records (its `[` read by `scan`):
  ;; from now on `compact` lays them out and says where each ends.
  (func (export "records")
    (global.set $listDepth (global.get $depth)))

  ;; A key's hash has been read: 0 when no earlier key of its object has that hash, else 1.
  (func $keep (result i32)
    (local $start i32) (local $at i32)
    (local.set $start
      (i32.load (i32.shl (i32.sub (global.get $depth) (i32.const 1)) (i32.const 2))))
    (if (i32.ge_u (i32.sub (global.get $hashTop) (local.get $start)) (i32.const 64))
      (then (return (i32.const 1))))
    (if (i32.ge_u (global.get $hashTop) (i32.const 16384)) (then (return (i32.const 1))))
    (local.set $at (local.get $start))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $at) (global.get $hashTop)))
        (if (i32.eq
              (i32.load (i32.add (i32.const 16384) (i32.shl (local.get $at) (i32.const 2))))
              (global.get $hash))
          (then (return (i32.const 1))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $each)))
    (i32.store (i32.add (i32.const 16384) (i32.shl (global.get $hashTop) (i32.const 2))) (global.get $hash))
    (global.set $hashTop (i32.add (global.get $hashTop) (i32.const 1)))
    (i32.const 0))

  ;; Opens a container whose hash list starts at `$start` (-1 for a list): 0, or 1 when too deep.
  (func $open (param $start i32) (result i32)
    (if (i32.ge_u (global.get $depth) (i32.const 4096)) (then (return (i32.const 1))))
    (i32.store (i32.shl (global.get $depth) (i32.const 2)) (local.get $start))
    (global.set $depth (i32.add (global.get $depth) (i32.const 1)))
    (i32.const 0))

  ;; Reads [p, p + len), the next chunk of the text: 0 while nothing repeats, 1 when the text
  ;; cannot be proved free of repeated keys (then the caller stops feeding it). The state lives
  ;; in locals while the chunk is read (globals between chunks); runs of blanks between tokens
  ;; and of plain characters in a value's string are skipped 16 bytes at a time.
  (func (export "scan") (param $p i32) (param $len i32) (result i32)
    (local $end i32) (local $c i32) (local $top i32) (local $v v128) (local $skip i32)
    (local $state i32) (local $inKey i32) (local $keyNext i32) (local $hash i32)
    (local.set $state (global.get $state))
    (local.set $inKey (global.get $inKey))
    (local.set $keyNext (global.get $keyNext))
    (local.set $hash (global.get $hash))
    (local.set $end (i32.add (local.get $p) (local.get $len)))
    (block $finished
      (loop $next
        (br_if $finished (i32.ge_u (local.get $p) (local.get $end)))
        ;; A whole block ahead: skip what cannot change the state (never reading past the chunk).
        (if (i32.le_u (i32.add (local.get $p) (i32.const 16)) (local.get $end))
          (then
            (local.set $v (v128.load (local.get $p)))
            (local.set $skip (i32.const -1))
            (if (i32.eqz (local.get $state))
              (then
                ;; Blanks (space, line feed) between tokens.
                (local.set $skip
                  (i32.ctz
                    (i32.or
                      (i32.xor
                        (i8x16.bitmask
                          (v128.or
                            (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x20)))
                            (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x0a)))))
                        (i32.const 0xffff))
                      (i32.const 0x10000))))))
            (if (i32.and (i32.eq (local.get $state) (i32.const 1)) (i32.eqz (local.get $inKey)))
              (then
                ;; A value's characters up to its next quote or backslash.
                (local.set $skip
                  (i32.ctz
                    (i32.or
                      (i8x16.bitmask
                        (v128.or
                          (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x22)))
                          (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5c)))))
                      (i32.const 0x10000))))))
            (if (i32.gt_s (local.get $skip) (i32.const 0))
              (then
                (local.set $p (i32.add (local.get $p) (local.get $skip)))
                (br $next)))))
        (local.set $c (i32.load8_u (local.get $p)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (if (i32.eq (local.get $state) (i32.const 1))
          (then
            (if (i32.eq (local.get $c) (i32.const 0x22))
              (then
                (local.set $state (i32.const 0))
                (if (local.get $inKey)
                  (then
                    (global.set $hash (local.get $hash))
                    (if (call $keep) (then (return (i32.const 1)))))))
              (else
                (if (i32.eq (local.get $c) (i32.const 0x5c))
                  (then
                    ;; An escape in a key: its bytes are not its text, so it is not proved.
                    (if (local.get $inKey) (then (return (i32.const 1))))
                    (local.set $state (i32.const 2)))
                  (else
                    (if (local.get $inKey)
                      (then
                        (local.set $hash
                          (i32.mul (i32.xor (local.get $hash) (local.get $c)) (i32.const 16777619)))))))))
            (br $next)))
        (if (i32.eq (local.get $state) (i32.const 2))
          (then (local.set $state (i32.const 1)) (br $next)))
        ;; Between tokens.
        (if (i32.eq (local.get $c) (i32.const 0x22))
          (then
            (local.set $state (i32.const 1))
            (local.set $inKey (local.get $keyNext))
            (local.set $keyNext (i32.const 0))
            (local.set $hash (i32.const 0x811c9dc5))
            (br $next)))
        (if (i32.eq (local.get $c) (i32.const 0x7b))
          (then
            (if (call $open (global.get $hashTop)) (then (return (i32.const 1))))
            (local.set $keyNext (i32.const 1))
            (br $next)))
        (if (i32.eq (local.get $c) (i32.const 0x5b))
          (then
            (if (call $open (i32.const -1)) (then (return (i32.const 1))))
            (local.set $keyNext (i32.const 0))
            (br $next)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 0x7d)) (i32.eq (local.get $c) (i32.const 0x5d)))
          (then
            ;; JSON.parse accepted the text: every close has its open.
            (global.set $depth (i32.sub (global.get $depth) (i32.const 1)))
            (local.set $top (i32.load (i32.shl (global.get $depth) (i32.const 2))))
            (if (i32.ne (local.get $top) (i32.const -1)) (then (global.set $hashTop (local.get $top))))
            (local.set $keyNext (i32.const 0))
            (br $next)))
        (if (i32.eq (local.get $c) (i32.const 0x2c))
          (then
            ;; After a comma in an object comes a key; in a list, a value.
            (local.set $keyNext
              (i32.and
                (i32.gt_u (global.get $depth) (i32.const 0))
                (i32.ne
                  (i32.load (i32.shl (i32.sub (global.get $depth) (i32.const 1)) (i32.const 2)))
                  (i32.const -1))))))
        (br $next)))
    (global.set $state (local.get $state))
    (global.set $inKey (local.get $inKey))
    (global.set $keyNext (local.get $keyNext))
    (global.set $hash (local.get $hash))
    (i32.const 0))

  ;; Reads [p, p + len) as `scan` does (the same state, so pieces of either kind may follow each
  ;; other) and writes it from `out` on with every blank (space, tab, line feed, carriage return)
  ;; between tokens dropped and every other byte copied. Returns where the writing ended, or -1
  ;; when the text is not proved: a repeated key as `scan` says, a byte of 0x80 or more, or a
  ;; blank dropped between two word bytes. Writes up to 16 bytes past its end (whole blocks): the
  ;; caller gives out + len + 16 <= limit. After `records`, inside the records' list it also lays
  ;; the records out as the store writes them (a `,` between two becomes `,\n    `), refusing to
  ;; write past `limit`; at `ends` it writes how many records ended in this piece, then where
  ;; the piece stopped (the `]` closing the list, or -1 when it was read to its end), then where
  ;; each record's laid-out form ends. The caller leaves 4 bytes there per 2 of the piece, and 12.
  ;; Unlike `scan`, each kind of token is read by a loop of its own (a key's bytes, a word's, a
  ;; value's characters a block at a time): it runs before V8 has optimised it, and short loops
  ;; are what its first compiler does best.
  (func (export "compact") (param $p i32) (param $len i32) (param $out i32) (param $limit i32) (param $ends i32)
    (result i32)
    (local $end i32) (local $c i32) (local $top i32) (local $v v128) (local $skip i32)
    (local $state i32) (local $inKey i32) (local $keyNext i32) (local $hash i32)
    (local $lastWord i32) (local $gap i32)
    (local.set $state (global.get $state))
    (local.set $inKey (global.get $inKey))
    (local.set $keyNext (global.get $keyNext))
    (local.set $hash (global.get $hash))
    (local.set $lastWord (global.get $lastWord))
    (local.set $gap (global.get $gap))
    (local.set $end (i32.add (local.get $p) (local.get $len)))
    (if (i32.ge_s (global.get $listDepth) (i32.const 0))
      (then
        (i32.store (local.get $ends) (i32.const 0))
        (i32.store offset=4 (local.get $ends) (i32.const -1))))
    (block $finished
      (loop $next
        (br_if $finished (i32.ge_u (local.get $p) (local.get $end)))
        (if (i32.eq (local.get $state) (i32.const 1))
          (then
            (if (local.get $inKey)
              (then
                ;; A key's bytes, each hashed, up to its closing quote.
                (loop $key
                  (br_if $finished (i32.ge_u (local.get $p) (local.get $end)))
                  (local.set $c (i32.load8_u (local.get $p)))
                  (i32.store8 (local.get $out) (local.get $c))
                  (local.set $p (i32.add (local.get $p) (i32.const 1)))
                  (local.set $out (i32.add (local.get $out) (i32.const 1)))
                  (if (i32.eq (local.get $c) (i32.const 0x22))
                    (then
                      (local.set $state (i32.const 0))
                      (global.set $hash (local.get $hash))
                      (if (call $keep) (then (return (i32.const -1))))
                      (br $next)))
                  ;; An escape in a key: its bytes are not its text, so it is not proved.
                  (if (i32.or (i32.eq (local.get $c) (i32.const 0x5c)) (i32.ge_u (local.get $c) (i32.const 0x80)))
                    (then (return (i32.const -1))))
                  (local.set $hash
                    (i32.mul (i32.xor (local.get $hash) (local.get $c)) (i32.const 16777619)))
                  (br $key))))
            ;; A value's characters, a block at a time up to its next quote, backslash or byte
            ;; of 0x80 or more.
            (loop $chars
              (if (i32.le_u (i32.add (local.get $p) (i32.const 16)) (local.get $end))
                (then
                  (local.set $v (v128.load (local.get $p)))
                  (v128.store (local.get $out) (local.get $v))
                  (local.set $skip
                    (i32.ctz
                      (i32.or
                        (i8x16.bitmask
                          (v128.or
                            (v128.or
                              (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x22)))
                              (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5c))))
                            (local.get $v)))
                        (i32.const 0x10000))))
                  (local.set $p (i32.add (local.get $p) (local.get $skip)))
                  (local.set $out (i32.add (local.get $out) (local.get $skip)))
                  (br_if $chars (i32.eq (local.get $skip) (i32.const 16)))))
              (br_if $finished (i32.ge_u (local.get $p) (local.get $end)))
              (local.set $c (i32.load8_u (local.get $p)))
              (if (i32.ge_u (local.get $c) (i32.const 0x80)) (then (return (i32.const -1))))
              (i32.store8 (local.get $out) (local.get $c))
              (local.set $p (i32.add (local.get $p) (i32.const 1)))
              (local.set $out (i32.add (local.get $out) (i32.const 1)))
              (if (i32.eq (local.get $c) (i32.const 0x22))
                (then (local.set $state (i32.const 0)) (br $next)))
              (if (i32.eq (local.get $c) (i32.const 0x5c))
                (then (local.set $state (i32.const 2)) (br $next)))
              (br $chars))))
        (local.set $c (i32.load8_u (local.get $p)))
        (if (i32.ge_u (local.get $c) (i32.const 0x80)) (then (return (i32.const -1))))
        (if (i32.eq (local.get $state) (i32.const 2))
          (then
            ;; The character after a backslash, whatever it is.
            (i32.store8 (local.get $out) (local.get $c))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (local.set $out (i32.add (local.get $out) (i32.const 1)))
            (local.set $state (i32.const 1))
            (br $next)))
        ;; Between tokens: a run of blanks is dropped, a block at a time.
        (if (i32.or
              (i32.or (i32.eq (local.get $c) (i32.const 0x20)) (i32.eq (local.get $c) (i32.const 0x0a)))
              (i32.or (i32.eq (local.get $c) (i32.const 0x0d)) (i32.eq (local.get $c) (i32.const 0x09))))
          (then
            (local.set $gap (local.get $lastWord))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (block $run
              (loop $blanks
                (br_if $run (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
                (local.set $v (v128.load (local.get $p)))
                (local.set $skip
                  (i32.ctz
                    (i32.or
                      (i32.xor
                        (i8x16.bitmask
                          (v128.or
                            (v128.or
                              (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x20)))
                              (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x0a))))
                            (v128.or
                              (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x0d)))
                              (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x09))))))
                        (i32.const 0xffff))
                      (i32.const 0x10000))))
                (local.set $p (i32.add (local.get $p) (local.get $skip)))
                (br_if $blanks (i32.eq (local.get $skip) (i32.const 16)))))
            (br $next)))
        (if (i32.and
              (i32.eq (global.get $depth) (global.get $listDepth))
              (i32.or (i32.eq (local.get $c) (i32.const 0x7d)) (i32.eq (local.get $c) (i32.const 0x5d))))
          (then
            ;; The records' list closes: stop before its `]` (the caller reads on with `scan`).
            (i32.store offset=4 (local.get $ends) (local.get $p))
            (br $finished)))
        (i32.store8 (local.get $out) (local.get $c))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (local.set $out (i32.add (local.get $out) (i32.const 1)))
        (if (i32.eq (local.get $c) (i32.const 0x22))
          (then
            (local.set $state (i32.const 1))
            (local.set $inKey (local.get $keyNext))
            (local.set $keyNext (i32.const 0))
            (local.set $hash (i32.const 0x811c9dc5))
            (local.set $lastWord (i32.const 0))
            (local.set $gap (i32.const 0))
            (br $next)))
        (if (i32.eq (local.get $c) (i32.const 0x7b))
          (then
            (if (call $open (global.get $hashTop)) (then (return (i32.const -1))))
            (local.set $keyNext (i32.const 1))
            (local.set $lastWord (i32.const 0))
            (local.set $gap (i32.const 0))
            (br $next)))
        (if (i32.eq (local.get $c) (i32.const 0x5b))
          (then
            (if (call $open (i32.const -1)) (then (return (i32.const -1))))
            (local.set $keyNext (i32.const 0))
            (local.set $lastWord (i32.const 0))
            (local.set $gap (i32.const 0))
            (br $next)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 0x7d)) (i32.eq (local.get $c) (i32.const 0x5d)))
          (then
            ;; JSON.parse accepts the text only when every close has its open.
            (global.set $depth (i32.sub (global.get $depth) (i32.const 1)))
            (local.set $top (i32.load (i32.shl (global.get $depth) (i32.const 2))))
            (if (i32.ne (local.get $top) (i32.const -1)) (then (global.set $hashTop (local.get $top))))
            (local.set $keyNext (i32.const 0))
            (local.set $lastWord (i32.const 0))
            (local.set $gap (i32.const 0))
            (if (i32.eq (global.get $depth) (global.get $listDepth))
              (then
                ;; A record ended: where its laid-out form ends goes in the table.
                (local.set $top (i32.load (local.get $ends)))
                (i32.store offset=8
                  (i32.add (local.get $ends) (i32.shl (local.get $top) (i32.const 2)))
                  (local.get $out))
                (i32.store (local.get $ends) (i32.add (local.get $top) (i32.const 1)))))
            (br $next)))
        (if (i32.eq (local.get $c) (i32.const 0x2c))
          (then
            ;; After a comma in an object comes a key; in a list, a value.
            (local.set $keyNext
              (i32.and
                (i32.gt_u (global.get $depth) (i32.const 0))
                (i32.ne
                  (i32.load (i32.shl (i32.sub (global.get $depth) (i32.const 1)) (i32.const 2)))
                  (i32.const -1))))
            (local.set $lastWord (i32.const 0))
            (local.set $gap (i32.const 0))
            (if (i32.eq (global.get $depth) (global.get $listDepth))
              (then
                ;; Between two records: the rest of the store's separator (a line break and
                ;; the indent), when it fits with all that may follow before `limit`.
                (if (i32.gt_u
                      (i32.add (i32.add (local.get $out) (i32.const 21)) (i32.sub (local.get $end) (local.get $p)))
                      (local.get $limit))
                  (then (return (i32.const -1))))
                (i32.store (local.get $out) (i32.const 0x2020200a))
                (i32.store8 offset=4 (local.get $out) (i32.const 0x20))
                (local.set $out (i32.add (local.get $out) (i32.const 5)))))
            (br $next)))
        (if (i32.eq (local.get $c) (i32.const 0x3a))
          (then
            (local.set $lastWord (i32.const 0))
            (local.set $gap (i32.const 0))
            (br $next)))
        ;; A byte of a word (a number, `true`, `null`…): after a dropped blank that followed
        ;; another word byte, the two words would join into one.
        (if (local.get $gap) (then (return (i32.const -1))))
        (local.set $lastWord (i32.const 1))
        ;; The word's next letters, digits and `+-.` copied by a loop of their own.
        (loop $word
          (br_if $finished (i32.ge_u (local.get $p) (local.get $end)))
          (local.set $c (i32.load8_u (local.get $p)))
          (if (i32.or
                (i32.or
                  (i32.lt_u (i32.sub (local.get $c) (i32.const 0x30)) (i32.const 10))
                  (i32.lt_u (i32.sub (i32.or (local.get $c) (i32.const 0x20)) (i32.const 0x61)) (i32.const 26)))
                (i32.or
                  (i32.eq (local.get $c) (i32.const 0x2e))
                  (i32.or (i32.eq (local.get $c) (i32.const 0x2d)) (i32.eq (local.get $c) (i32.const 0x2b)))))
            (then
              (i32.store8 (local.get $out) (local.get $c))
              (local.set $p (i32.add (local.get $p) (i32.const 1)))
              (local.set $out (i32.add (local.get $out) (i32.const 1)))
              (br $word))))
        (br $next)))
    (global.set $state (local.get $state))
    (global.set $inKey (local.get $inKey))
    (global.set $keyNext (local.get $keyNext))
    (global.set $hash (local.get $hash))
    (global.set $lastWord (local.get $lastWord))
    (global.set $gap (local.get $gap))
    (local.get $out))
)
