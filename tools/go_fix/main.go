// go_fix adds the integer conversions the Go backend of kaitai-struct-compiler 0.11 leaves out, so that its
// output compiles: Kaitai's expressions mix integer widths freely (every other target widens them), Go refuses
// any mix. Run in a package folder by tools/gen_parsers.py:
//
//	go run ./tools/go_fix DIR
//
// It builds DIR with every type error listed (go build -gcflags=-e), fixes each error it knows at the node the
// error names, and repeats until the package builds (at most 20 rounds). Fixes, each the widening every other
// target does:
//   - x op y with integer operands of two types: both operands become int64 (uint64 if either is uint64);
//   - a value used where another integer type is wanted (an argument, a field, a return value): converted to
//     that type; assigned to a compiler temporary (tmpN) declared with a narrower type: the temporary is
//     declared int64 instead, so nothing is cut;
//   - nil returned for an enum (an integer type): 0.
//
// An error it does not know stops it with that error: the package is not written half fixed.
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

var (
	errLine    = regexp.MustCompile(`^(.+\.go):(\d+):(\d+): (.*)$`)
	mismatched = regexp.MustCompile(`^invalid operation: (.*) \(mismatched types (\S+) and (\S+)\)$`)
	cannotUse  = regexp.MustCompile(`^cannot use (.*) \((?:variable|value|constant [^)]*) of (?:(\S+) )?type (\S+)\) as (\S+) value in (assignment|argument to .*|return statement|struct literal)$`)
	nilReturn  = regexp.MustCompile(`^cannot use nil as (\S+) value in return statement$`)
	integers   = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true, "uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "byte": true}
)

type typeError struct {
	file      string
	line, col int
	msg       string
}

func build(dir string) ([]typeError, error) {
	cmd := exec.Command("go", "build", "-gcflags=-e", "./...")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil {
		return nil, nil
	}
	var errs []typeError
	for _, l := range strings.Split(string(out), "\n") {
		m := errLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		errs = append(errs, typeError{filepath.Join(dir, strings.TrimPrefix(m[1], "./")), line, col, m[4]})
	}
	if len(errs) == 0 {
		return nil, fmt.Errorf("go build failed without type errors:\n%s", out)
	}
	return errs, nil
}

// text is a node's source without spaces, to compare with an expression an error message prints.
func text(fset *token.FileSet, n ast.Node) string {
	var b bytes.Buffer
	printer.Fprint(&b, fset, n)
	return strings.ReplaceAll(b.String(), " ", "")
}

func call(typ string, x ast.Expr) ast.Expr {
	return &ast.CallExpr{Fun: ast.NewIdent(typ), Args: []ast.Expr{&ast.ParenExpr{X: x}}}
}

// fixFile applies the fixes of one file's errors; the number it could not apply is an error.
func fixFile(path string, errs []typeError) error {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		return err
	}
	tf := fset.File(file.Pos())
	widen := map[string]bool{} // temporaries to declare int64
	for _, e := range errs {
		pos := tf.LineStart(e.line) + token.Pos(e.col-1)
		done := false
		if m := mismatched.FindStringSubmatch(e.msg); m != nil && integers[m[2]] && integers[m[3]] {
			wide := "int64"
			if m[2] == "uint64" || m[3] == "uint64" {
				wide = "uint64"
			}
			ast.Inspect(file, func(n ast.Node) bool {
				b, ok := n.(*ast.BinaryExpr)
				if done || !ok || pos < b.Pos() || pos > b.End() {
					return !done
				}
				if text(fset, b) == strings.ReplaceAll(m[1], " ", "") {
					b.X, b.Y = call(wide, b.X), call(wide, b.Y)
					done = true
				}
				return !done
			})
		} else if m := cannotUse.FindStringSubmatch(e.msg); m != nil && (integers[m[3]] || integers[m[2]]) && integers[m[4]] {
			// m[2]: the underlying type of a named one (an enum: "variable of int type TypedKey_Kind")
			// an assignment to a temporary declared narrower: widen the temporary instead of cutting the value
			if m[5] == "assignment" && m[4] != "int64" && m[4] != "uint64" {
				ast.Inspect(file, func(n ast.Node) bool {
					a, ok := n.(*ast.AssignStmt)
					if done || !ok || len(a.Rhs) != 1 || a.Rhs[0].Pos() != pos {
						return !done
					}
					if id, ok := a.Lhs[0].(*ast.Ident); ok && strings.HasPrefix(id.Name, "tmp") {
						widen[id.Name] = true
						done = true
					}
					return !done
				})
			}
			if !done {
				replaced := replaceAt(file, pos, func(x ast.Expr) ast.Expr {
					if text(fset, x) != strings.ReplaceAll(m[1], " ", "") {
						return nil
					}
					return call(m[4], x)
				})
				done = replaced
			}
		} else if m := nilReturn.FindStringSubmatch(e.msg); m != nil {
			done = replaceAt(file, pos, func(x ast.Expr) ast.Expr {
				if id, ok := x.(*ast.Ident); ok && id.Name == "nil" {
					return &ast.BasicLit{Kind: token.INT, Value: "0"}
				}
				return nil
			})
		}
		if !done {
			return fmt.Errorf("%s:%d:%d: no fix known: %s", path, e.line, e.col, e.msg)
		}
	}
	if len(widen) > 0 {
		ast.Inspect(file, func(n ast.Node) bool {
			if vs, ok := n.(*ast.ValueSpec); ok && len(vs.Names) == 1 && widen[vs.Names[0].Name] {
				vs.Type = ast.NewIdent("int64")
			}
			return true
		})
	}
	var out bytes.Buffer
	if err := printer.Fprint(&out, fset, file); err != nil {
		return err
	}
	return os.WriteFile(path, out.Bytes(), 0o644)
}

// replaceAt replaces the outermost expression starting at pos for which repl returns a node.
func replaceAt(file *ast.File, pos token.Pos, repl func(ast.Expr) ast.Expr) bool {
	done := false
	var visit func(n ast.Node) bool
	swap := func(p *ast.Expr) {
		if !done && *p != nil && (*p).Pos() == pos {
			if r := repl(*p); r != nil {
				*p = r
				done = true
			}
		}
	}
	visit = func(n ast.Node) bool {
		if done {
			return false
		}
		switch v := n.(type) {
		case *ast.CallExpr:
			for i := range v.Args {
				swap(&v.Args[i])
			}
		case *ast.AssignStmt:
			for i := range v.Rhs {
				swap(&v.Rhs[i])
			}
		case *ast.ReturnStmt:
			for i := range v.Results {
				swap(&v.Results[i])
			}
		case *ast.KeyValueExpr:
			swap(&v.Value)
		case *ast.BinaryExpr:
			swap(&v.X)
			swap(&v.Y)
		case *ast.ParenExpr:
			swap(&v.X)
		}
		return !done
	}
	ast.Inspect(file, visit)
	return done
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go_fix DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	for round := 0; round < 20; round++ {
		errs, err := build(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "go_fix:", err)
			os.Exit(1)
		}
		if errs == nil {
			return
		}
		byFile := map[string][]typeError{}
		for _, e := range errs {
			byFile[e.file] = append(byFile[e.file], e)
		}
		files := make([]string, 0, len(byFile))
		for f := range byFile {
			files = append(files, f)
		}
		sort.Strings(files)
		for _, f := range files {
			if err := fixFile(f, byFile[f]); err != nil {
				fmt.Fprintln(os.Stderr, "go_fix:", err)
				os.Exit(1)
			}
		}
	}
	fmt.Fprintln(os.Stderr, "go_fix: still failing after 20 rounds")
	os.Exit(1)
}
