package main

// The data sets cases run over (by name), decoded by encoding/json: every number a float64.
const d = "d"

var datasets = map[string]string{
	"d": `{
  "name": "api", "count": 3, "ratio": 0.25, "big": 12345678, "huge": 1e21, "neg": -2.5, "zero": 0,
  "ok": true, "no": false, "empty": "", "nothing": null, "text": "  Hello, World  ",
  "items": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}],
  "tags": ["x", "y", "z"], "none": [], "obj": {"b": 2, "a": 1, "c": {"d": "deep"}}, "emptyObj": {},
  "html": "<a href=\"x\">&'</a>", "multi": "line1\nline2", "unicode": "héllo wörld ✓",
  "tree": {"v": 1, "next": {"v": 2, "next": {"v": 3}}}
}`,
}

var cases = []tcase{
	// Text, fields, missing keys.
	{"text only", `plain text`, d},
	{"field", `{{.name}}`, d},
	{"nested field", `{{.obj.c.d}}`, d},
	{"missing key", `{{.missing}}`, d},
	{"missing nested", `{{.missing.deeper}}`, d},
	{"null field", `{{.nothing}}`, d},
	{"dot map", `{{.obj}}`, d},
	{"dot list", `{{.tags}}`, d},
	{"list of maps", `{{.items}}`, d},
	{"empty map and list", `{{.emptyObj}} {{.none}}`, d},
	{"float printing", `{{.count}} {{.ratio}} {{.big}} {{.huge}} {{.neg}} {{.zero}}`, d},
	{"bool printing", `{{.ok}} {{.no}}`, d},
	{"nil data", `{{.}}`, ""},
	{"field of nil data", `{{.x}}`, ""},
	{"field on string", `{{.name.x}}`, d},
	{"field on list", `{{.tags.x}}`, d},

	// Literals and constants.
	{"int constant", `{{1}} {{-3}} {{0x1F}} {{1_000}}`, d},
	{"float constant", `{{1.5}} {{1e3}} {{.5}} {{1.0}}`, d},
	{"char constant", `{{'a'}} {{'\n'}}`, d},
	{"string constants", `{{"a\tb"}} {{` + "`raw\\n`" + `}}`, d},
	{"bool nil constants", `{{true}} {{false}}`, d},

	// Pipelines and variables.
	{"pipeline", `{{.name | printf "%s!"}}`, d},
	{"pipeline chain", `{{"abc" | printf "%s-%s" "x"}}`, d},
	{"paren pipeline", `{{printf "%s=%v" (print "k") (len .tags)}}`, d},
	{"variable", `{{$x := .name}}{{$x}}`, d},
	{"variable assign", `{{$x := 1}}{{if true}}{{$x = 2}}{{end}}{{$x}}`, d},
	{"dollar root", `{{range .items}}{{$.name}}-{{.id}} {{end}}`, d},
	{"variable field", `{{$o := .obj}}{{$o.c.d}}`, d},
	{"decl prints nothing", `a{{$x := 5}}b`, d},
	{"chain on paren", `{{(.obj).c.d}}`, d},

	// if / else / with.
	{"if true", `{{if .ok}}yes{{end}}`, d},
	{"if else", `{{if .no}}yes{{else}}no{{end}}`, d},
	{"else if", `{{if .no}}1{{else if .ok}}2{{else}}3{{end}}`, d},
	{"if empty values", `{{if .empty}}a{{end}}{{if .none}}b{{end}}{{if .emptyObj}}c{{end}}{{if .zero}}d{{end}}{{if .nothing}}e{{end}}{{if .missing}}f{{end}}-`, d},
	{"if truthy values", `{{if .name}}a{{end}}{{if .tags}}b{{end}}{{if .obj}}c{{end}}{{if .count}}d{{end}}`, d},
	{"with", `{{with .obj.c}}{{.d}}{{end}}`, d},
	{"with else", `{{with .missing}}x{{else}}none{{end}}`, d},
	{"else with", `{{with .missing}}x{{else with .name}}{{.}}{{end}}`, d},
	{"if variable scope", `{{$x := "out"}}{{if true}}{{$x := "in"}}{{$x}}{{end}} {{$x}}`, d},

	// range.
	{"range list", `{{range .tags}}[{{.}}]{{end}}`, d},
	{"range index", `{{range $i, $t := .tags}}{{$i}}={{$t}} {{end}}`, d},
	{"range one var", `{{range $t := .tags}}{{$t}}{{end}}`, d},
	{"range map sorted", `{{range $k, $v := .obj}}{{$k}}:{{$v}};{{end}}`, d},
	{"range else", `{{range .none}}x{{else}}empty{{end}}`, d},
	{"range missing", `{{range .missing}}x{{else}}nothing{{end}}`, d},
	{"range break", `{{range .tags}}{{if eq . "y"}}{{break}}{{end}}{{.}}{{end}}`, d},
	{"range continue", `{{range .tags}}{{if eq . "y"}}{{continue}}{{end}}{{.}}{{end}}`, d},
	{"range nested", `{{range .items}}{{$id := .id}}{{range $.tags}}{{$id}}{{.}} {{end}}{{end}}`, d},
	{"range over string", `{{range .name}}x{{end}}`, d},

	// Trim markers and comments.
	{"trim left", "a  {{- .name}}", d},
	{"trim right", "{{.name -}}  \n b", d},
	{"trim both", "x \n {{- .name -}} \n y", d},
	{"trim in range", "{{range .tags -}}\n  {{.}}\n{{- end}}", d},
	{"comment", `a{{/* note */}}b`, d},
	{"trimmed comment", "a {{- /* note */ -}} b", d},
	{"number minus not trim", `{{-3}}`, d},

	// define / template / block.
	{"define template", `{{define "x"}}[{{.}}]{{end}}{{template "x" .name}}`, d},
	{"template no data", `{{define "x"}}[{{.}}]{{end}}{{template "x"}}`, d},
	{"block", `{{block "b" .}}{{.name}}{{end}}`, d},
	{"block redefined", `{{define "b"}}override {{.count}}{{end}}{{block "b" .}}{{.name}}{{end}}`, d},
	{"template recursion", `{{define "r"}}{{.v}}{{with .next}},{{template "r" .}}{{end}}{{end}}{{template "r" .tree}}`, d},
	{"template dollar", `{{define "x"}}{{$}}{{end}}{{template "x" .count}}`, d},

	// Comparisons and logic.
	{"eq", `{{eq .name "api"}} {{eq .count 3.0}} {{eq "a" "b" "a"}} {{eq .ok true}}`, d},
	{"ne lt le gt ge", `{{ne 1 2}} {{lt 1 2}} {{le 2 2}} {{gt .count 1.5}} {{ge "b" "a"}}`, d},
	{"eq int float mismatch", `{{eq .count 3}}`, d},
	{"lt incompatible", `{{lt 1 "a"}}`, d},
	{"eq missing", `{{eq .missing .missing2}}`, d},
	{"eq nil", `{{eq .nothing .missing}}`, d},
	{"eq map", `{{eq .obj .obj}}`, d},
	{"and or", `{{and 1 0 2}} {{and 1 2}} {{or 0 "" "x"}} {{or 0 ""}}`, d},
	{"and short circuit", `{{and .no (index .tags 9)}}`, d},
	{"or short circuit", `{{or .ok (index .tags 9)}}`, d},
	{"not", `{{not .ok}} {{not .empty}} {{not .none}}`, d},
	{"len", `{{len .tags}} {{len .name}} {{len .obj}} {{len .unicode}}`, d},
	{"len of number", `{{len .count}}`, d},
	{"index", `{{index .tags 1}} {{index .obj "b"}} {{index .items 0 "name"}} {{index .obj "zz"}}`, d},
	{"index string", `{{index .name 0}}`, d},
	{"index out of range", `{{index .tags 5}}`, d},
	{"index float", `{{index .tags 1.0}}`, d},
	{"slice is gomplate's", `{{slice .tags 1}} {{slice 1 "a" .ok}}`, d},

	// print, printf, println.
	{"print", `{{print 1 2 "a" "b" 3}}`, d},
	{"println", `{{println "a" 1}}`, d},
	{"printf d", `{{printf "%d %5d %-5d| %05d %+d %x %X %o %b" 42 42 42 42 42 255 255 8 5}}`, d},
	{"printf float", `{{printf "%f %.2f %8.3f %e %g %G" 3.14159 3.14159 3.14159 1234.5678 0.000012345 1e21}}`, d},
	{"printf float data", `{{printf "%.1f%%" .ratio}} {{printf "%v" .big}} {{printf "%d" .count}}`, d},
	{"printf s q v", `{{printf "%s|%q|%v|%10s|%-10s|" "hi" "hi\n" "hi" "r" "l"}}`, d},
	{"printf v map", `{{printf "%v" .obj}} {{printf "%+v" .items}}`, d},
	{"printf T", `{{printf "%T %T %T %T %T %T" .name .count 1 .tags .obj .nothing}}`, d},
	{"printf t c U", `{{printf "%t %c %U" true 65 0x1F600}}`, d},
	{"printf missing arg", `{{printf "%s %s" "a"}}`, d},
	{"printf extra arg", `{{printf "%s" "a" "b"}}`, d},
	{"printf bad verb", `{{printf "%z" 1}}`, d},
	{"printf star", `{{printf "%*d|%-*d|" 5 1 4 2}}`, d},
	{"printf x string", `{{printf "%x %X % x" "hi" "hi" "hi"}}`, d},
	{"printf q int", `{{printf "%q" 65}}`, d},
	{"printf v nil", `{{printf "%v %d" .nothing .nothing}}`, d},
	{"printf unicode", `{{printf "%5.2s|%q" .unicode .unicode}}`, d},

	// html, js, urlquery.
	{"html", `{{html .html}}`, d},
	{"js", `{{js .html}} {{js "a\nb"}}`, d},
	{"urlquery", `{{urlquery "a b&c=d/é"}}`, d},
	{"html of number", `{{html 1 2}}`, d},

	// gomplate functions (with gomplate's signatures).
	{"toUpper pipe", `{{.name | toUpper}} {{toLower "ABC"}}`, d},
	{"replaceAll", `{{.name | replaceAll "a" "A"}}`, d},
	{"contains", `{{contains .name "p"}} {{hasPrefix .name "a"}} {{hasSuffix .name "x"}}`, d},
	{"split", `{{split "a,b,c" ","}} {{splitN "a,b,c" "," 2}} {{index (split "a,b" ",") 1}}`, d},
	{"trim cutset", `{{trim "xxhixx" "x"}}`, d},
	{"func wrong arg type", `{{contains .count "x"}}`, d},
	{"func wrong arg count", `{{contains "x"}}`, d},
	{"func pipe missing", `{{.missing | contains "x"}}`, d},

	// Errors: parse.
	{"undefined function", `{{.name | nosuchfunc}}`, d},
	{"unclosed action", `{{.name`, d},
	{"unclosed if", `{{if .ok}}x`, d},
	{"unexpected end", `x{{end}}`, d},
	{"bad else", `{{else}}`, d},
	{"missing if value", "line1\n{{if}}x{{end}}", d},
	{"undefined variable", `{{$x}}`, d},
	{"unterminated string", `{{"abc}}`, d},
	{"bad number", `{{3x}}`, d},
	{"break outside range", `{{break}}`, d},
	{"empty pipeline", `{{}}`, d},
	{"non executable", `{{.name | "x"}}`, d},
	{"unexpected bracket", `{{.name ]}}`, d},
	{"template undefined at exec", `{{template "nope"}}`, d},
	{"multi line error", "a\nb\n  {{.x | nope}}", d},
	{"range too many vars", `{{range $a, $b, $c := .tags}}{{end}}`, d},
	{"bad char in action", `{{.name @}}`, d},

	// Errors: exec.
	{"call non function", `{{.name 1}}`, d},
	{"nil pointer", `{{.nothing.x}}`, d},
	{"range over number", `{{range .count}}x{{end}}`, d},
	{"wrong type exec line", "ok\n  {{index .tags \"a\"}}", d},
	{"eq no args", `{{eq .name}}`, d},
}
