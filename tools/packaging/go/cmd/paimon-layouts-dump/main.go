// Command paimon-layouts-dump prints a parsed file as the language-neutral JSON tree of tree_schema.json, the
// same lines as every language's dump program.
//
//	paimon-layouts-dump ROOT FILE [PARAM ...]
//	paimon-layouts-dump --jobs JOBS.tsv      (one job per line: ID, ROOT, FILE, PARAM ... by tabs)
//	paimon-layouts-dump --bench RUNS ROOT FILE [PARAM ...]   ({"best_ms"}: parse + tree walk, best of RUNS)
//
// Go gives a field its type's zero value where its `if` leaves it out (an integer 0, an empty array), and
// prints that: the one way Go's trees may differ from Python's, which prints null.
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/kaitai-io/kaitai_struct_go_runtime/kaitai"
	layouts "github.com/paimon-conform/paimon-layouts-go"
)

type schema struct {
	Roots map[string]struct {
		Class  string `json:"class"`
		Params []struct {
			ID   string `json:"id"`
			Kind string `json:"kind"`
		} `json:"params"`
	} `json:"roots"`
	Types map[string][]string `json:"types"`
}

var tree schema

func upperCamel(id string) string {
	parts := strings.Split(id, "_")
	for i, p := range parts {
		if p != "" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, "")
}

var errorType = reflect.TypeOf((*error)(nil)).Elem()

func value(out *bytes.Buffer, v reflect.Value) error {
	switch v.Kind() {
	case reflect.Invalid:
		out.WriteString("null")
	case reflect.Interface:
		if v.IsNil() {
			out.WriteString("null")
			return nil
		}
		return value(out, v.Elem())
	case reflect.Ptr:
		if v.IsNil() {
			out.WriteString("null")
			return nil
		}
		return structValue(out, v)
	case reflect.Bool:
		out.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		out.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		out.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		switch {
		case math.IsNaN(f):
			out.WriteString(`"NaN"`)
		case math.IsInf(f, 1):
			out.WriteString(`"Infinity"`)
		case math.IsInf(f, -1):
			out.WriteString(`"-Infinity"`)
		default:
			out.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
		}
	case reflect.String:
		b, _ := json.Marshal(v.String())
		out.Write(b)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			out.WriteString(`{"$bytes":"` + hex.EncodeToString(v.Bytes()) + `"}`)
			return nil
		}
		out.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				out.WriteByte(',')
			}
			if err := value(out, v.Index(i)); err != nil {
				return err
			}
		}
		out.WriteByte(']')
	default:
		return fmt.Errorf("no tree form for %s", v.Type())
	}
	return nil
}

func structValue(out *bytes.Buffer, v reflect.Value) error {
	path := strings.ReplaceAll(v.Elem().Type().Name(), "_", ".")
	fields, ok := tree.Types[path]
	if !ok {
		return fmt.Errorf("%s is not in the tree schema", path)
	}
	out.WriteByte('{')
	for i, id := range fields {
		if i > 0 {
			out.WriteByte(',')
		}
		key, _ := json.Marshal(id)
		out.Write(key)
		out.WriteByte(':')
		name := upperCamel(id)
		var got reflect.Value
		if m := v.MethodByName(name); m.IsValid() && m.Type().NumIn() == 0 && m.Type().NumOut() == 2 && m.Type().Out(1) == errorType {
			res := m.Call(nil)
			if err, _ := res[1].Interface().(error); err != nil {
				return err
			}
			got = res[0]
		} else if f := v.Elem().FieldByName(name); f.IsValid() {
			got = f
		} else {
			return fmt.Errorf("%s has no field or instance %s", path, name)
		}
		if err := value(out, got); err != nil {
			return err
		}
	}
	out.WriteByte('}')
	return nil
}

func parse(root string, data []byte, params []string) (any, error) {
	entry, ok := tree.Roots[root]
	if !ok {
		return nil, fmt.Errorf("no spec %s", root)
	}
	if len(params) != len(entry.Params) {
		return nil, fmt.Errorf("%s takes %d parameters", root, len(entry.Params))
	}
	args := make([]any, len(params))
	for i, p := range entry.Params {
		var v any
		d := json.NewDecoder(strings.NewReader(params[i]))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			return nil, err
		}
		switch p.Kind {
		case "bytes":
			b, err := hex.DecodeString(v.(string))
			if err != nil {
				return nil, err
			}
			args[i] = b
		case "bool":
			args[i] = v.(bool)
		default:
			n, err := v.(json.Number).Int64()
			if err != nil {
				return nil, err
			}
			args[i] = n
		}
	}
	return layouts.ParseRoot(root, kaitai.NewStream(bytes.NewReader(data)), args)
}

func dumpOne(root string, data []byte, params []string) (tree string, err error) {
	defer func() {
		if r := recover(); r != nil { // an index out of range in generated code is a rejection too
			err = fmt.Errorf("panic: %v at %s", r, panicSite())
		}
	}()
	obj, err := parse(root, data, params)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	if err := value(&out, reflect.ValueOf(obj)); err != nil {
		return "", err
	}
	return out.String(), nil
}

// panicSite is the innermost frame of the generated parsers in a recovered panic's stack ("roaring32.go:622").
func panicSite() string {
	for _, line := range strings.Split(string(debug.Stack()), "\n") {
		line = strings.TrimSpace(line)
		if strings.Contains(line, "/paimon-layouts-go/") || strings.Contains(line, "generated/go/") {
			if i := strings.LastIndex(line, "/"); i >= 0 && strings.Contains(line, ".go:") && !strings.Contains(line, "/cmd/") {
				return strings.Fields(line[i+1:])[0]
			}
		}
	}
	return "?"
}

func main() {
	if err := json.Unmarshal(layouts.TreeSchema, &tree); err != nil {
		fmt.Fprintln(os.Stderr, "tree_schema.json:", err)
		os.Exit(2)
	}
	args := os.Args[1:]
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	if len(args) >= 4 && args[0] == "--bench" {
		runs, _ := strconv.Atoi(args[1])
		data, err := os.ReadFile(args[3])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		best := math.Inf(1)
		for i := 0; i < runs; i++ {
			t := time.Now()
			if _, err := dumpOne(args[2], data, args[4:]); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			best = math.Min(best, float64(time.Since(t).Nanoseconds())/1e6)
		}
		fmt.Fprintf(out, "{\"best_ms\":%g}\n", best)
		return
	}
	var jobs [][]string
	switch {
	case len(args) == 2 && args[0] == "--jobs":
		text, err := os.ReadFile(args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		for _, line := range strings.Split(string(text), "\n") {
			if strings.TrimSpace(line) != "" {
				jobs = append(jobs, strings.Split(line, "\t"))
			}
		}
	case len(args) >= 2:
		jobs = [][]string{append([]string{args[1]}, args...)}
	default:
		fmt.Fprintln(os.Stderr, "usage: paimon-layouts-dump ROOT FILE [PARAM ...] | --jobs FILE")
		os.Exit(2)
	}
	for _, job := range jobs {
		id, _ := json.Marshal(job[0])
		data, err := os.ReadFile(job[2])
		var t string
		if err == nil {
			t, err = dumpOne(job[1], data, job[3:])
		}
		if err != nil {
			msg, _ := json.Marshal(err.Error())
			fmt.Fprintf(out, "{\"id\":%s,\"ok\":false,\"error\":%s}\n", id, msg)
		} else {
			fmt.Fprintf(out, "{\"id\":%s,\"ok\":true,\"tree\":%s}\n", id, t)
		}
	}
}
