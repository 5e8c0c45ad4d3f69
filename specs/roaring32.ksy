meta:
  id: roaring32
  title: RoaringBitmap 32-bit portable serialization
  application: Apache Paimon (shaded org.roaringbitmap, RoaringBitmap32)
  license: Apache-2.0
  ks-version: '0.11'
  endian: le
doc: |
  The "portable" serialization of a 32-bit RoaringBitmap, as Paimon writes it
  through `RoaringBitmap32.serialize` (which calls `runOptimize()` first) in
  deletion vectors, bitmap, BSI and range-bitmap indexes. All words are
  little-endian.

  A value v lives in the container whose key is `v >> 16`; the container
  holds the low 16 bits. A container is a run container when its run flag is
  set, else an array container (sorted u2 values) when its cardinality is at
  most 4096, else a bitmap container (65536 bits).

  Invariants checked here: the cookie, container count, strictly ascending
  keys, offset header equal to the real container positions, runs ascending,
  not overlapping and within 16 bits, no run container without runs.
  Invariants the library checks (`paimon_conform.layouts.roaring32.codec`), because they need
  a reduction over a whole container: array values strictly ascending, a
  bitmap container's popcount equal to its cardinality (and above 4096), the
  sum of run lengths equal to the cardinality, and no trailing bytes when the
  bitmap is a file of its own.
doc-ref:
  - https://github.com/RoaringBitmap/RoaringFormatSpec
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/utils/RoaringBitmap32.java
seq:
  - id: start_anchor
    size: 0
    if: ofs_start >= 0
    doc: |
      Zero-width; forces `ofs_start` to be taken before the cookie is read,
      so offsets stay right when this bitmap is embedded in a larger stream
      (a 64-bit bitmap's bucket).
  - id: cookie
    -code: ROARING_BAD_COOKIE
    type: u2
    enum: cookie
    valid:
      in-enum: true
    doc: Low half of the first word.
  - id: num_containers_minus_one
    type: u2
    if: has_run
    doc: High half of the first word when the cookie announces run containers.
  - id: reserved
    -code: ROARING_BAD_COOKIE
    type: u2
    valid: 0
    if: not has_run
    doc: High half of the cookie word 12346; always 0.
  - id: num_containers_no_run
    -code: ROARING_TOO_MANY_CONTAINERS
    type: u4
    valid:
      max: 65536
    if: not has_run
  - id: run_flags
    size: (num_containers + 7) / 8
    if: has_run
    doc: Bit i (LSB first) set means container i is a run container.
  - id: descriptors
    type: descriptor(_index)
    repeat: expr
    repeat-expr: num_containers
  - id: ofs_containers
    type: u4
    repeat: expr
    repeat-expr: num_containers
    if: has_offsets
    doc: |
      Byte offset of each container from the cookie. Present when there is
      no run container, or when there are at least 4 containers
      (NO_OFFSET_THRESHOLD).
  - id: containers
    type: container(_index)
    repeat: expr
    repeat-expr: num_containers
instances:
  ofs_start:
    value: _io.pos
    doc: Stream position of the cookie.
  has_run:
    value: cookie == cookie::with_run_containers
  num_containers:
    value: 'has_run ? num_containers_minus_one.as<s4> + 1 : num_containers_no_run'
  has_offsets:
    value: not has_run or num_containers >= 4
types:
  descriptor:
    params:
      - id: idx
        type: s4
    seq:
      - id: key
        -code: ROARING_KEYS_NOT_ASCENDING
        type: u2
        valid:
          expr: 'idx == 0 ? true : _ > _parent.descriptors[idx - 1].key'
        doc: High 16 bits shared by the container's values; strictly ascending.
      - id: cardinality_minus_one
        type: u2
    instances:
      cardinality:
        value: cardinality_minus_one.as<s4> + 1
  container:
    params:
      - id: idx
        type: s4
    seq:
      - id: offset_check
        -code: ROARING_BAD_OFFSET
        size: 0
        valid:
          expr: not _parent.has_offsets or _io.pos - _parent.ofs_start == _parent.ofs_containers[idx]
        doc: Zero-width; the offset header must point exactly here.
      - id: body
        type:
          switch-on: kind
          cases:
            'container_kind::array': array_container(cardinality)
            'container_kind::bitmap': bitmap_container
            'container_kind::run': run_container
    instances:
      key:
        value: _parent.descriptors[idx].key
      cardinality:
        value: _parent.descriptors[idx].cardinality
      is_run:
        value: _parent.has_run and ((_parent.run_flags[idx / 8] >> (idx % 8)) & 1) == 1
      kind:
        value: 'is_run ? container_kind::run : (cardinality <= 4096 ? container_kind::array : container_kind::bitmap)'
  array_container:
    params:
      - id: cardinality
        type: s4
    seq:
      - id: values
        type: u2
        repeat: expr
        repeat-expr: cardinality
        doc: Low 16 bits of each value, strictly ascending.
  bitmap_container:
    seq:
      - id: words
        size: 8192
        doc: |
          1024 little-endian u64 words; value v is bit (v & 63) of word
          (v >> 6), i.e. bit (v & 7) of byte (v >> 3).
  run_container:
    seq:
      - id: num_runs
        -code: ROARING_EMPTY_CONTAINER
        type: u2
        valid:
          min: 1
          max: 32768
        doc: A run container holds at least one run (no empty container).
      - id: runs
        type: run(_index)
        repeat: expr
        repeat-expr: num_runs
  run:
    params:
      - id: idx
        type: s4
    seq:
      - id: start
        -code: ROARING_RUNS_OVERLAP
        type: u2
        valid:
          expr: 'idx == 0 ? true : _ > _parent.runs[idx - 1].last'
        doc: First value of the run; runs are ascending and do not overlap.
      - id: len_minus_one
        -code: ROARING_RUN_PAST_CONTAINER_END
        type: u2
        valid:
          expr: start.as<s4> + _ <= 65535
        doc: Run length minus one; the run must end within the container.
    instances:
      last:
        value: start.as<s4> + len_minus_one
enums:
  cookie:
    12346: no_run_containers
    12347: with_run_containers
  container_kind:
    1: array
    2: bitmap
    3: run
