// A testee in Go built on the generated parsers (generated/go, module paimon-layouts-go): `decode` of
// roaring32, roaring64, deletion-vectors and file-index (file_index.go) through the kit's testee protocol 1 (JSON lines on stdin/stdout,
// docs/testee-protocol.md). The starting point a Go port copies into its own CI: the spec parser does the
// framing and every check the spec states; this program adds the checks the spec cannot express (a standalone
// bitmap's trailing bytes, container contents against their cardinality, DV position ranges) and turns the
// parse tree into the case. Run through tools/testees/generated_go.py, which builds it.
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/kaitai-io/kaitai_struct_go_runtime/kaitai"
	layouts "github.com/paimon-conform/paimon-layouts-go"
)

const maxPosition64 = int64(0x7FFFFFFE)<<32 | 0x80000000

type refused struct{ code, msg string }

func (r *refused) Error() string { return r.code + ": " + r.msg }

// ranges collects sorted positions as [start, end] pairs.
type ranges struct {
	pairs       [][2]int64
	cardinality int64
}

func (r *ranges) run(start, end int64) {
	r.cardinality += end - start + 1
	if n := len(r.pairs); n > 0 && r.pairs[n-1][1]+1 == start {
		r.pairs[n-1][1] = end
		return
	}
	r.pairs = append(r.pairs, [2]int64{start, end})
}

func (r *ranges) json() string {
	var b strings.Builder
	fmt.Fprintf(&b, `"cardinality":%d,"ranges":[`, r.cardinality)
	for i, p := range r.pairs {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "[%d,%d]", p[0], p[1])
	}
	b.WriteByte(']')
	return b.String()
}

func roaring32(bitmap *layouts.Roaring32, high int64, out *ranges) error {
	for _, c := range bitmap.Containers {
		key, err := c.Key()
		if err != nil {
			return err
		}
		card, err := c.Cardinality()
		if err != nil {
			return err
		}
		base := high | int64(key)<<16
		held := 0
		switch body := c.Body.(type) {
		case *layouts.Roaring32_RunContainer:
			for _, r := range body.Runs {
				last, err := r.Last()
				if err != nil {
					return err
				}
				out.run(base+int64(r.Start), base+int64(last))
				held += last - int(r.Start) + 1
			}
		case *layouts.Roaring32_ArrayContainer:
			previous := -1
			for _, v := range body.Values {
				if int(v) <= previous {
					return &refused{"ROARING_ARRAY_NOT_ASCENDING", fmt.Sprintf("value %d does not exceed the previous %d", v, previous)}
				}
				previous = int(v)
				out.run(base+int64(v), base+int64(v))
				held++
			}
		case *layouts.Roaring32_BitmapContainer:
			for i := 0; i < len(body.Words)*8; i++ {
				if body.Words[i>>3]>>(i&7)&1 != 0 {
					out.run(base+int64(i), base+int64(i))
					held++
				}
			}
			if held == 0 {
				return &refused{"ROARING_EMPTY_CONTAINER", "bitmap container with no bit set"}
			}
		}
		if held != card {
			return &refused{"ROARING_CARDINALITY_MISMATCH", fmt.Sprintf("the container holds %d values, the header says %d", held, card)}
		}
	}
	return nil
}

func roaring64(bitmap *layouts.Roaring64) (*ranges, error) {
	out := &ranges{}
	for _, b := range bitmap.Buckets {
		if err := roaring32(b.Bitmap, int64(b.HighKey)<<32, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func ended(io *kaitai.Stream, data []byte) error {
	pos, err := io.Pos()
	if err != nil {
		return err
	}
	if int(pos) != len(data) {
		return &refused{"ROARING_TRAILING_BYTES", fmt.Sprintf("%d bytes after the bitmap", len(data)-int(pos))}
	}
	return nil
}

func decode(kind string, data []byte, types json.RawMessage) (string, error) {
	io := kaitai.NewStream(bytes.NewReader(data))
	switch kind {
	case "file-index":
		return fileIndex(data, types)
	case "roaring32":
		bitmap := layouts.NewRoaring32()
		if err := bitmap.Read(io, nil, bitmap); err != nil {
			return "", err
		}
		if err := ended(io, data); err != nil {
			return "", err
		}
		r := &ranges{}
		if err := roaring32(bitmap, 0, r); err != nil {
			return "", err
		}
		return `{"case_format":1,"kind":"roaring32",` + r.json() + "}", nil
	case "roaring64":
		bitmap := layouts.NewRoaring64()
		if err := bitmap.Read(io, nil, bitmap); err != nil {
			return "", err
		}
		if err := ended(io, data); err != nil {
			return "", err
		}
		r, err := roaring64(bitmap)
		if err != nil {
			return "", err
		}
		return `{"case_format":1,"kind":"roaring64",` + r.json() + "}", nil
	case "deletion-vectors":
		file := layouts.NewDeletionVectors()
		if err := file.Read(io, nil, file); err != nil {
			return "", err
		}
		var b strings.Builder
		b.WriteString(`{"case_format":1,"kind":"deletion-vectors","version":1,"vectors":[`)
		for i, v := range file.Vectors {
			var r *ranges
			name := "bitmap32"
			if v.Blob.Magic == layouts.DeletionVectors_Magic__Bitmap64 {
				name = "bitmap64"
				var err error
				if r, err = roaring64(v.Blob.Bitmap.(*layouts.Roaring64)); err != nil {
					return "", err
				}
				if n := len(r.pairs); n > 0 && (r.pairs[n-1][1] < 0 || r.pairs[n-1][1] > maxPosition64) {
					return "", &refused{"DV_POSITION_OUT_OF_RANGE", "a position past Bitmap64DeletionVector's maximum"}
				}
			} else {
				r = &ranges{}
				if err := roaring32(v.Blob.Bitmap.(*layouts.Roaring32), 0, r); err != nil {
					return "", err
				}
				if n := len(r.pairs); n > 0 && r.pairs[n-1][1] > 1<<31-1 {
					return "", &refused{"DV_POSITION_OUT_OF_RANGE", "a position past 2^31 - 1"}
				}
			}
			ofs, err := v.OfsVector()
			if err != nil {
				return "", err
			}
			length, err := v.LenManifest()
			if err != nil {
				return "", err
			}
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"bitmap":%q,"offset":%d,"length":%d,%s}`, name, ofs, length, r.json())
		}
		b.WriteString("]}")
		return b.String(), nil
	}
	return "", fmt.Errorf("not declared: %s", kind)
}

func answer(line string) (reply string) {
	var req struct {
		ID    int64           `json:"id"`
		Op    string          `json:"op"`
		Kind  string          `json:"kind"`
		Data  string          `json:"data"`
		Types json.RawMessage `json:"types"`
	}
	if err := json.Unmarshal([]byte(line), &req); err != nil {
		return ""
	}
	id := strconv.FormatInt(req.ID, 10)
	fail := func(code, msg string) string {
		e, _ := json.Marshal(map[string]string{"code": code, "message": msg})
		if code == "" {
			e, _ = json.Marshal(map[string]string{"message": msg})
		}
		return `{"id":` + id + `,"error":` + string(e) + "}"
	}
	if req.Op == "hello" {
		return `{"id":` + id + `,"name":"generated-go","version":"0.1.0","protocol":1,"java_release":"2.0",` +
			`"capabilities":{"decode":["roaring32","roaring64","deletion-vectors","file-index"]}}`
	}
	if req.Op != "decode" {
		return fail("", "not declared: "+req.Op)
	}
	defer func() { // an index out of range in a parser is a refusal, not a crash
		if r := recover(); r != nil {
			reply = fail("", fmt.Sprint("panic: ", r))
		}
	}()
	data, err := hex.DecodeString(req.Data)
	if err != nil {
		return fail("", err.Error())
	}
	c, err := decode(req.Kind, data, req.Types)
	if err != nil {
		if r, ok := err.(*refused); ok {
			return fail(r.code, r.msg)
		}
		return fail("", err.Error())
	}
	return `{"id":` + id + `,"case":` + c + "}"
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<30)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		line := in.Text()
		if strings.Contains(line, `"op": "bye"`) || strings.Contains(line, `"op":"bye"`) {
			break
		}
		fmt.Fprintln(out, answer(line))
		out.Flush()
	}
}
