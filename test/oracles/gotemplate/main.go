// Command gotemplate renders a list of Go text/template cases with Go's own engine and writes what
// Go answers (output, or the error) to cases.json, the fixture the TypeScript engine is compared
// with (server/platform/expressions/template/template.test.ts). Data are decoded by encoding/json,
// as canary-checker hands them to gomplate; a few functions are registered with the signatures
// flanksource/gomplate gives them.
//
//	cd test/oracles/gotemplate && go run . > cases.json
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strings"
	"text/template"
)

type tcase struct {
	Name     string `json:"name"`
	Template string `json:"template"`
	Data     string `json:"data"` // a key of datasets; "" for nil data
}

type result struct {
	Name     string `json:"name"`
	Template string `json:"template"`
	Data     string `json:"data"`
	Output   string `json:"output,omitempty"`
	// Error: Go's message without its "template: NAME:LINE:COL: " prefix; Line and Column where Go
	// puts it (Column is 1-based here; parse errors carry no column).
	Error  string `json:"error,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Raw    string `json:"raw,omitempty"`
}

// The gomplate functions the cases use, with gomplate's signatures (funcs/strings.go, funcs/coll.go):
// the legacy aliases are Go's strings functions themselves.
var funcs = template.FuncMap{
	"toUpper":    func(s interface{}) string { return strings.ToUpper(fmt.Sprint(s)) },
	"toLower":    func(s interface{}) string { return strings.ToLower(fmt.Sprint(s)) },
	"replaceAll": func(old, new string, s interface{}) string { return strings.ReplaceAll(fmt.Sprint(s), old, new) },
	"contains":   strings.Contains,
	"hasPrefix":  strings.HasPrefix,
	"hasSuffix":  strings.HasSuffix,
	"split":      strings.Split,
	"splitN":     strings.SplitN,
	"trim":       strings.Trim,
	// coll.Slice hides Go's builtin slice in gomplate.
	"slice": func(args ...interface{}) []interface{} { return args },
}

var parsePrefix = regexp.MustCompile(`^template: [^:]*:(\d+):(?:(\d+):)? ?`)
var execContext = regexp.MustCompile(`^executing "[^"]*" `)

func run(c tcase) result {
	out := result{Name: c.Name, Template: c.Template, Data: c.Data}
	var data interface{}
	if c.Data != "" {
		if err := json.Unmarshal([]byte(datasets[c.Data]), &data); err != nil {
			panic(fmt.Sprintf("%s: bad data: %v", c.Name, err))
		}
	}
	tpl, err := template.New("").Funcs(funcs).Parse(c.Template)
	if err == nil {
		var buf bytes.Buffer
		err = tpl.Execute(&buf, data)
		if err == nil {
			out.Output = buf.String()
			return out
		}
	}
	raw := err.Error()
	out.Raw = raw
	msg := raw
	if m := parsePrefix.FindStringSubmatch(raw); m != nil {
		fmt.Sscan(m[1], &out.Line)
		if m[2] != "" {
			fmt.Sscan(m[2], &out.Column)
			out.Column++
		}
		msg = raw[len(m[0]):]
	}
	out.Error = execContext.ReplaceAllString(msg, "executing ")
	return out
}

func main() {
	results := make([]result, 0, len(cases))
	for _, c := range cases {
		results = append(results, run(c))
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(map[string]interface{}{"go": runtime.Version(), "datasets": datasets, "cases": results}); err != nil {
		panic(err)
	}
}
