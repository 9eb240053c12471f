// Package bundle joins a page's ES modules into one script, so that a
// browser asks for one file instead of one per module. Over HTTP/1.1 a
// browser opens six connections to a host: the page's forty-odd modules
// then came in seven rounds, and its WebSocket waited behind them
// (docs/performance.md, "The first lesson").
//
// The modules are the page's own, written in one small form, which Join
// checks rather than parses JavaScript:
//
//	import { a, b as c } from './x.js';   (one line, a sibling file)
//	export { a, b as c } from './x.js';   (passed on, not bound here)
//	export function f / async function / function* / class C / const K
//
// Each module becomes a function of its own, run once, in the order the
// browser runs modules (each after every module it imports, in import
// order, depth first), returning its exports; an import is a const taken
// from them. A module's exports are functions, classes and consts, which
// never change once the module has run, so a copy is the binding itself.
// Anything else (export let, export default, import * as, a cycle, a name
// the other module does not export) is refused with its file and line:
// the browser would have read it differently.
package bundle

import (
	"bytes"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
)

var (
	// fromRE is an import or a re-export of a sibling module.
	fromRE = regexp.MustCompile(`^(import|export) \{([^}]*)\} from '\./([a-z0-9_-]+\.js)';\s*(//.*)?$`)
	// declRE is an exported declaration and its name.
	declRE = regexp.MustCompile(`^export ((?:async )?function\*?|class|const) ([A-Za-z_$][\w$]*)\b`)
	// nameRE is an identifier in an import list.
	nameRE = regexp.MustCompile(`^[A-Za-z_$][\w$]*$`)
)

// module is one file as read: its lines, with its imports and exports.
type module struct {
	name    string
	lines   []string
	imports []link               // in the file's order
	exports []string             // the names it exports, in the file's order
	from    map[string][2]string // an exported name passed on from another module: its file and name there
}

// link is one import or re-export line.
type link struct {
	line   int // index into lines
	export bool
	file   string
	names  [][2]string // [name in file, name here]
}

// Join reads entry and every module it imports from fsys and returns them
// as one script, to be loaded as a module (type="module"): its code runs in
// strict mode, after the page is parsed, as the modules would have.
func Join(fsys fs.FS, entry string) ([]byte, error) {
	mods := map[string]*module{}
	var order []*module
	state := map[string]int{} // 1 being read, 2 done
	var visit func(name, by string) error
	visit = func(name, by string) error {
		switch state[name] {
		case 1:
			return fmt.Errorf("%s: imports %s, which imports it back (a cycle: the modules cannot be joined in one order)", by, name)
		case 2:
			return nil
		}
		state[name] = 1
		m, err := read(fsys, name)
		if err != nil {
			return err
		}
		mods[name] = m
		for _, l := range m.imports {
			if err := visit(l.file, fmt.Sprintf("%s:%d", name, l.line+1)); err != nil {
				return err
			}
		}
		state[name] = 2
		order = append(order, m)
		return nil
	}
	if err := visit(entry, "the page"); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// The page's modules (%s and all it imports) joined into one script by\n// internal/bundle: each module's code is its file's, in a function of its own.\n", entry)
	for _, m := range order {
		if err := write(&b, m, mods); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

// read reads one module and finds its imports and exports.
func read(fsys fs.FS, name string) (*module, error) {
	body, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	m := &module{name: name, lines: strings.Split(string(body), "\n"), from: map[string][2]string{}}
	for i, line := range m.lines {
		at := fmt.Sprintf("%s:%d", name, i+1)
		if !strings.HasPrefix(line, "import") && !strings.HasPrefix(line, "export") {
			if strings.Contains(line, "import(") || strings.Contains(line, "import.meta") {
				return nil, fmt.Errorf("%s: a dynamic import or import.meta, which the joined script cannot keep", at)
			}
			continue
		}
		if g := fromRE.FindStringSubmatch(line); g != nil {
			l := link{line: i, export: g[1] == "export", file: g[3]}
			for _, part := range strings.Split(g[2], ",") {
				part = strings.TrimSpace(part)
				if part == "" {
					continue
				}
				pair := [2]string{part, part}
				if a, b, ok := strings.Cut(part, " as "); ok {
					pair = [2]string{strings.TrimSpace(a), strings.TrimSpace(b)}
				}
				if !nameRE.MatchString(pair[0]) || !nameRE.MatchString(pair[1]) {
					return nil, fmt.Errorf("%s: %q is not a name to import", at, part)
				}
				l.names = append(l.names, pair)
				if l.export {
					m.exports = append(m.exports, pair[1])
					m.from[pair[1]] = [2]string{l.file, pair[0]}
				}
			}
			m.imports = append(m.imports, l)
			continue
		}
		if g := declRE.FindStringSubmatch(line); g != nil {
			m.exports = append(m.exports, g[2])
			continue
		}
		return nil, fmt.Errorf("%s: %q is not an import or export this page's modules use (import { … } from './x.js'; export function, class or const)", at, line)
	}
	return m, nil
}

// write adds one module to b: its lines, imports turned into consts taken
// from the modules already written, in a function returning its exports.
func write(b *bytes.Buffer, m *module, mods map[string]*module) error {
	lines := append([]string(nil), m.lines...)
	for _, l := range m.imports {
		from := mods[l.file]
		var binds []string
		for _, p := range l.names {
			if !exports(from, p[0]) {
				return fmt.Errorf("%s:%d: %s does not export %s", m.name, l.line+1, l.file, p[0])
			}
			if p[0] == p[1] {
				binds = append(binds, p[0])
			} else {
				binds = append(binds, p[0]+": "+p[1])
			}
		}
		if l.export {
			lines[l.line] = "// " + lines[l.line] // passed on in the returned exports
		} else {
			lines[l.line] = "const { " + strings.Join(binds, ", ") + " } = " + ident(l.file) + ";"
		}
	}
	for i, line := range lines {
		if declRE.MatchString(line) {
			lines[i] = strings.TrimPrefix(line, "export ")
		}
	}
	var out []string
	for _, name := range m.exports {
		if f, ok := m.from[name]; ok {
			out = append(out, name+": "+ident(f[0])+"."+f[1])
		} else {
			out = append(out, name)
		}
	}
	fmt.Fprintf(b, "\n// ./%s\nconst %s = (() => {\n%s\nreturn { %s };\n})();\n", m.name, ident(m.name), strings.TrimRight(strings.Join(lines, "\n"), "\n"), strings.Join(out, ", "))
	return nil
}

// exports says whether m exports name.
func exports(m *module, name string) bool {
	for _, e := range m.exports {
		if e == name {
			return true
		}
	}
	return false
}

// ident is the joined script's name for a module's exports: ./i18n.js is
// __module_i18n.
func ident(file string) string {
	return "__module_" + strings.NewReplacer("-", "_", ".", "_").Replace(strings.TrimSuffix(file, ".js"))
}
