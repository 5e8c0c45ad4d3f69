// `decode` of a file-index container: the container and its payloads parsed by the generated parsers
// (file_index, bloom_filter, bitmap_index, bsi, range_bitmap), each typed payload turned into the column's
// values row by row, in the kit's logical JSON form of the column's type (the request's `types`). Added here,
// beyond the specs: payloads must not overlap, every row of a bitmap index is covered once, rows stay below
// the row count, and a range-bitmap's slices stay within its existence bitmap.
package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/kaitai-io/kaitai_struct_go_runtime/kaitai"
	layouts "github.com/paimon-conform/paimon-layouts-go"
)

var (
	integerTypes = map[string]bool{"TINYINT": true, "SMALLINT": true, "INT": true, "BIGINT": true}
	stringTypes  = map[string]bool{"CHAR": true, "VARCHAR": true, "STRING": true}
	bsiTypes     = map[string]bool{"TINYINT": true, "SMALLINT": true, "INT": true, "BIGINT": true, "DATE": true,
		"TIME": true, "TIMESTAMP": true, "TIMESTAMP_LTZ": true, "DECIMAL": true}
)

// columnType is a column type as the kit writes it ("INT", "TIMESTAMP(6)", "DECIMAL(10, 2)").
type columnType struct {
	root             string
	precision, scale int64
}

func parseType(text string) columnType {
	text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), " NOT NULL"))
	root, args, _ := strings.Cut(text, "(")
	var nums []int64
	for _, a := range strings.Split(strings.TrimSuffix(args, ")"), ",") {
		if n, err := strconv.ParseInt(strings.TrimSpace(a), 10, 64); err == nil {
			nums = append(nums, n)
		}
	}
	t := columnType{root: strings.TrimSpace(root)}
	at := func(i int, def int64) int64 {
		if i < len(nums) {
			return nums[i]
		}
		return def
	}
	switch t.root {
	case "TIMESTAMP", "TIMESTAMP_LTZ":
		t.precision = at(0, 6)
	case "DECIMAL":
		t.precision, t.scale = at(0, 10), at(1, 0)
	}
	return t
}

// kindCode is the key kind (the specs' `kind` enum id) a column type is written with.
func kindCode(t columnType, rangeBitmap bool) (int64, bool) {
	switch {
	case t.root == "TINYINT":
		return 1, true
	case t.root == "SMALLINT":
		return 2, true
	case t.root == "INT" || t.root == "DATE" || t.root == "TIME":
		return 4, true
	case t.root == "BIGINT" || t.root == "TIMESTAMP" || t.root == "TIMESTAMP_LTZ":
		return 8, true
	case t.root == "DECIMAL" && rangeBitmap && t.precision <= 18:
		return 8, true
	case t.root == "FLOAT":
		return 14, true
	case t.root == "DOUBLE":
		return 18, true
	case t.root == "BOOLEAN":
		return 21, true
	case stringTypes[t.root]:
		return 99, true
	}
	return 0, false
}

func civilFromDays(days int64) (int64, int64, int64) {
	z := days + 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day := doy - (153*mp+2)/5 + 1
	month := mp + 3
	if mp >= 10 {
		month = mp - 9
	}
	year := yoe + era*400
	if month <= 2 {
		year++
	}
	return year, month, day
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

func isoDate(days int64) (string, error) {
	y, m, d := civilFromDays(days)
	if y < 0 || y > 9999 {
		return "", fmt.Errorf("day %d is outside the years 0000..9999", days)
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d), nil
}

// decimalText is Python's str(Decimal(unscaled).scaleb(-scale)): plain unless the exponent is very small.
func decimalText(unscaled, scale int64) string {
	digits := new(big.Int).Abs(big.NewInt(unscaled)).String()
	sign := ""
	if unscaled < 0 {
		sign = "-"
	}
	n := int64(len(digits))
	adjusted := n - 1 - scale
	if scale < 0 || adjusted < -6 {
		rest := ""
		if n > 1 {
			rest = "." + digits[1:]
		}
		exp := strconv.FormatInt(adjusted, 10)
		if adjusted >= 0 {
			exp = "+" + exp
		}
		return sign + digits[:1] + rest + "E" + exp
	}
	if scale == 0 {
		return sign + digits
	}
	if n > scale {
		return sign + digits[:n-scale] + "." + digits[n-scale:]
	}
	return sign + "0." + strings.Repeat("0", int(scale-n)) + digits
}

func floatJSON(f float64) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return f
}

// toJSON is a stored key as the logical JSON value of a column of type t: an int64, float64, bool or []byte.
func toJSON(t columnType, key any) (any, error) {
	switch k := key.(type) {
	case int64:
		switch {
		case integerTypes[t.root]:
			return k, nil
		case t.root == "DATE":
			return isoDate(k)
		case t.root == "TIME":
			ms := floorMod(k, 86400000)
			return fmt.Sprintf("%02d:%02d:%02d.%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000), nil
		case t.root == "TIMESTAMP" || t.root == "TIMESTAMP_LTZ":
			millis, nano := k, int64(0)
			if t.precision > 3 {
				millis, nano = floorDiv(k, 1000), floorMod(k, 1000)*1000
			}
			days, ms := floorDiv(millis, 86400000), floorMod(millis, 86400000)
			date, err := isoDate(days)
			if err != nil {
				return nil, err
			}
			text := fmt.Sprintf("%sT%02d:%02d:%02d", date, ms/3600000, ms/60000%60, ms/1000%60)
			if t.precision > 0 {
				frac := fmt.Sprintf("%03d%06d", ms%1000, nano)
				text += "." + frac[:min(t.precision, 9)]
			}
			return text, nil
		case t.root == "DECIMAL":
			return decimalText(k, t.scale), nil
		}
	case float64:
		if t.root == "FLOAT" || t.root == "DOUBLE" {
			return floatJSON(k), nil
		}
	case bool:
		if t.root == "BOOLEAN" {
			return k, nil
		}
	case []byte:
		if stringTypes[t.root] {
			return strings.ToValidUTF8(string(k), "\uFFFD"), nil
		}
	}
	return nil, fmt.Errorf("a key of another kind than a %s column's", t.root)
}

// bitmapValues is the values a roaring bitmap holds, ascending.
func bitmapValues(bitmap *layouts.Roaring32) ([]int64, error) {
	r := &ranges{}
	if err := roaring32(bitmap, 0, r); err != nil {
		return nil, err
	}
	var out []int64
	for _, p := range r.pairs {
		for v := p[0]; v <= p[1]; v++ {
			out = append(out, v)
		}
	}
	return out, nil
}

// keyValue is a parsed key (bitmap_index's or typed_key's) as int64, float64, bool or []byte.
func keyValue(v any) (any, error) {
	switch k := v.(type) {
	case int8:
		return int64(k), nil
	case int16:
		return int64(k), nil
	case int32:
		return int64(k), nil
	case int64:
		return k, nil
	case float32:
		return float64(k), nil
	case float64:
		return k, nil
	case uint8:
		return k != 0, nil
	case *layouts.BitmapIndex_StringKey:
		return k.Value, nil
	case *layouts.TypedKey_StringKey:
		return k.Value, nil
	case *layouts.TypedKey_BooleanKey:
		return k.Value == 1, nil
	}
	return nil, fmt.Errorf("a key of no known kind (%T)", v)
}

func stream(data []byte) *kaitai.Stream { return kaitai.NewStream(bytes.NewReader(data)) }

// bitmapIndex is a bitmap index (V1 or V2): each key's rows, the null rows, every row exactly once.
func bitmapIndex(payload []byte, t columnType) (map[string]any, error) {
	code, ok := kindCode(t, false)
	if !ok {
		return nil, fmt.Errorf("no bitmap index for %s", t.root)
	}
	index := layouts.NewBitmapIndex(layouts.BitmapIndex_KeyKind(code))
	if err := index.Read(stream(payload), nil, index); err != nil {
		return nil, err
	}
	bodyStart := len(payload) - len(index.Body)
	rowsAt := func(offset int32) ([]int64, error) {
		if offset < 0 {
			return []int64{-1 - int64(offset)}, nil
		}
		if int(offset) >= len(index.Body) {
			return nil, &refused{"BITMAP_OFFSET_OUT_OF_RANGE", fmt.Sprintf("bitmap offset %d is outside the body", offset)}
		}
		bitmap := layouts.NewRoaring32()
		if err := bitmap.Read(stream(payload[bodyStart+int(offset):]), nil, bitmap); err != nil {
			return nil, err
		}
		return bitmapValues(bitmap)
	}
	type group struct {
		key  any
		null bool
		rows []int64
	}
	var groups []group
	add := func(k *layouts.BitmapIndex_Key, offset int32) error {
		key, err := keyValue(k.Value)
		if err != nil {
			return err
		}
		rows, err := rowsAt(offset)
		groups = append(groups, group{key: key, rows: rows})
		return err
	}
	version := 2
	if index.Version == layouts.BitmapIndex_Version__V1 {
		version = 1
		for _, e := range index.EntriesV1 {
			if err := add(e.Key, e.OfsBitmap); err != nil {
				return nil, err
			}
		}
	} else {
		for _, b := range index.IndexBlocks.Blocks {
			for _, e := range b.Entries {
				if err := add(e.Key, e.OfsBitmap); err != nil {
					return nil, err
				}
			}
		}
	}
	if index.HasNulls != 0 {
		rows, err := rowsAt(index.OfsNullBitmap)
		if err != nil {
			return nil, err
		}
		groups = append(groups, group{null: true, rows: rows})
	}
	numRows := int64(index.NumRows)
	covered := int64(0)
	for _, g := range groups {
		covered += int64(len(g.rows))
	}
	if covered != numRows {
		return nil, &refused{"BITMAP_ROWS_NOT_COVERED", fmt.Sprintf("the row count says %d rows, the bitmaps cover %d", numRows, covered)}
	}
	out := make([]any, numRows)
	seen := make([]bool, numRows)
	for _, g := range groups {
		var value any
		if !g.null {
			var err error
			if value, err = toJSON(t, g.key); err != nil {
				return nil, err
			}
		}
		for _, r := range g.rows {
			if r >= numRows || seen[r] {
				return nil, &refused{"BITMAP_ROW_OUT_OF_RANGE", fmt.Sprintf("row %d cannot hold another value", r)}
			}
			out[r], seen[r] = value, true
		}
	}
	return map[string]any{"version": version, "row_values": out}, nil
}

// bsiHalf adds one half of a BSI to found: each row's value, the half's minimum plus the bits of its slices.
func bsiHalf(half *layouts.Bsi_Half, sign int64, found map[int64]int64) error {
	rows, err := bitmapValues(half.Existence)
	if err != nil {
		return err
	}
	value := make(map[int64]int64, len(rows))
	for _, r := range rows {
		value[r] = half.Min
	}
	for i, slice := range half.Slices {
		got, err := bitmapValues(slice)
		if err != nil {
			return err
		}
		for _, r := range got {
			if v, ok := value[r]; ok {
				value[r] = v + int64(1)<<uint(i)
			}
		}
	}
	for _, r := range rows {
		found[r] = sign * value[r]
	}
	return nil
}

func bsi(payload []byte, t columnType) (map[string]any, error) {
	if !bsiTypes[t.root] {
		return nil, fmt.Errorf("no bsi index for %s", t.root)
	}
	index := layouts.NewBsi()
	if err := index.Read(stream(payload), nil, index); err != nil {
		return nil, err
	}
	found := map[int64]int64{}
	if index.HasPositive != 0 {
		if err := bsiHalf(index.Positive, 1, found); err != nil {
			return nil, err
		}
	}
	if index.HasNegative != 0 {
		if err := bsiHalf(index.Negative, -1, found); err != nil {
			return nil, err
		}
	}
	numRows := int64(index.NumRows)
	for r := range found {
		if r >= numRows {
			return nil, &refused{"BSI_ROW_OUT_OF_RANGE", fmt.Sprintf("a row is not below the row count %d", numRows)}
		}
	}
	out := make([]any, max(numRows, 0))
	for r := range out {
		if v, ok := found[int64(r)]; ok {
			value, err := toJSON(t, v)
			if err != nil {
				return nil, err
			}
			out[r] = value
		}
	}
	return map[string]any{"row_values": out}, nil
}

// rangeBitmap is the dictionary's keys in code order, each row's code from the code slices.
func rangeBitmap(payload []byte, t columnType) (map[string]any, error) {
	code, ok := kindCode(t, true)
	if !ok {
		return nil, fmt.Errorf("no range-bitmap index for %s", t.root)
	}
	index := layouts.NewRangeBitmap(layouts.TypedKey_Kind(code))
	if err := index.Read(stream(payload), nil, index); err != nil {
		return nil, err
	}
	var values []any
	addKey := func(k *layouts.TypedKey) error {
		key, err := keyValue(k.Value)
		if err != nil {
			return err
		}
		value, err := toJSON(t, key)
		values = append(values, value)
		return err
	}
	for _, chunk := range index.Dictionary.Chunks.Chunks {
		if err := addKey(chunk.FirstKey); err != nil {
			return nil, err
		}
		block, err := chunk.Block()
		if err != nil {
			return nil, err
		}
		for _, listed := range block.Keys.Keys {
			if err := addKey(listed.Key); err != nil {
				return nil, err
			}
		}
	}
	rows, err := bitmapValues(index.Codes.Existence)
	if err != nil {
		return nil, err
	}
	codes := make(map[int64]int64, len(rows))
	for _, r := range rows {
		codes[r] = 0
	}
	for i, slice := range index.Codes.Slices.Slices {
		got, err := bitmapValues(slice.Bitmap)
		if err != nil {
			return nil, err
		}
		for _, r := range got {
			c, ok := codes[r]
			if !ok {
				return nil, &refused{"RANGE_BITMAP_SLICE_OUTSIDE_EXISTENCE", "a slice holds rows the existence bitmap does not"}
			}
			codes[r] = c + int64(1)<<uint(min(i, 31))
		}
	}
	numRows := int64(index.Header.NumRows)
	if n := len(rows); n > 0 && rows[n-1] >= numRows {
		return nil, &refused{"RANGE_BITMAP_TOO_MANY_ROWS_TO_LIST", fmt.Sprintf("a row is not below the row count %d", numRows)}
	}
	out := make([]any, max(numRows, 0))
	for r, c := range codes {
		if c < 0 || c >= int64(len(values)) {
			return nil, fmt.Errorf("code %d is not in the dictionary", c)
		}
		out[r] = values[c]
	}
	return map[string]any{"row_values": out}, nil
}

func indexEntry(e *layouts.FileIndex_IndexEntry, t *columnType) (map[string]any, error) {
	name, err := e.IndexType.Value()
	if err != nil {
		return nil, err
	}
	out := map[string]any{"index_type": name, "offset": e.OfsPayload, "length": e.LenPayload}
	empty, err := e.IsEmpty()
	if err != nil {
		return nil, err
	}
	if empty {
		out["empty"] = true
		return out, nil
	}
	payload, err := e.Payload()
	if err != nil {
		return nil, err
	}
	switch p := payload.(type) {
	case *layouts.BloomFilter:
		numBits, err := p.NumBits()
		if err != nil {
			return nil, err
		}
		out["payload"] = map[string]any{"num_hash_functions": p.NumHashFunctions, "num_bits": numBits, "bits": hex.EncodeToString(p.Bits)}
	case []byte:
		var decoded map[string]any
		switch {
		case t != nil && name == "bitmap":
			decoded, err = bitmapIndex(p, *t)
		case t != nil && name == "bsi":
			decoded, err = bsi(p, *t)
		case t != nil && name == "range-bitmap":
			decoded, err = rangeBitmap(p, *t)
		default:
			out["payload_hex"] = hex.EncodeToString(p)
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out["payload"] = decoded
	default:
		return nil, fmt.Errorf("an entry without a payload")
	}
	return out, nil
}

// fileIndex is the case of a file-index container; types is the request's (its `columns`: name and type).
func fileIndex(data []byte, types json.RawMessage) (string, error) {
	var stated struct {
		Columns []struct {
			Name string `json:"name"`
			Type string `json:"type"`
		} `json:"columns"`
	}
	if len(types) > 0 {
		if err := json.Unmarshal(types, &stated); err != nil {
			return "", err
		}
	}
	typeText := map[string]string{}
	for _, c := range stated.Columns {
		if c.Type != "" {
			typeText[c.Name] = c.Type
		}
	}
	file := layouts.NewFileIndex()
	if err := file.Read(stream(data), nil, file); err != nil {
		return "", err
	}
	var spans [][2]int64
	for _, col := range file.Columns {
		for _, e := range col.Indexes {
			empty, err := e.IsEmpty()
			if err != nil {
				return "", err
			}
			if !empty && e.LenPayload > 0 {
				spans = append(spans, [2]int64{int64(e.OfsPayload), int64(e.OfsPayload) + int64(e.LenPayload)})
			}
		}
	}
	sort.Slice(spans, func(i, j int) bool {
		return spans[i][0] < spans[j][0] || spans[i][0] == spans[j][0] && spans[i][1] < spans[j][1]
	})
	for i := 1; i < len(spans); i++ {
		if spans[i][0] < spans[i-1][1] {
			msg := fmt.Sprintf("payload at %d starts inside the payload at %d..%d", spans[i][0], spans[i-1][0], spans[i-1][1])
			return "", &refused{"FILE_INDEX_PAYLOADS_OVERLAP", msg}
		}
	}
	columns := []any{}
	for _, col := range file.Columns {
		name, err := col.Name.Value()
		if err != nil {
			return "", err
		}
		column := map[string]any{"name": name}
		var t *columnType
		if text, ok := typeText[name]; ok {
			column["type"] = text
			parsed := parseType(text)
			t = &parsed
		}
		indexes := []any{}
		for _, e := range col.Indexes {
			entry, err := indexEntry(e, t)
			if err != nil {
				return "", err
			}
			indexes = append(indexes, entry)
		}
		column["indexes"] = indexes
		columns = append(columns, column)
	}
	out, err := json.Marshal(map[string]any{"case_format": 1, "kind": "file-index", "version": 1, "columns": columns})
	return string(out), err
}
