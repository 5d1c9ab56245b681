package main

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/resolve/trace"
)

// The text and Markdown renderings of a diffView say the same things; the
// phrases are shared here.

func (a attachmentChange) text() string {
	s := fmt.Sprintf("%s → %s listener %s", a.Route, a.Parent, a.Listener)
	if strings.HasPrefix(a.Listener, "port ") {
		s = fmt.Sprintf("%s → %s %s", a.Route, a.Parent, a.Listener)
	}
	return s
}

func (a attachmentChange) why() string {
	if a.Reason == "" {
		return ""
	}
	if a.Message == "" {
		return a.Reason
	}
	return a.Reason + ": " + a.Message
}

func (h hostnameChange) text() string {
	return fmt.Sprintf("%s → %s listener %s: hostname %s", h.Route, h.Parent, h.Listener, h.Hostname)
}

// text renders where a request goes: "HTTPRoute shop/cart rule cart
// (Service shop/cart-v1:8080 80%, Service shop/cart-v2:8080 20%)",
// "NotMatched 404", "Redirected 301 https://shop.example.com/".
func (s requestState) text() string {
	var parts []string
	if s.Outcome != trace.Forwarded {
		o := string(s.Outcome)
		if s.StatusCode != 0 {
			o += " " + strconv.Itoa(s.StatusCode)
		}
		if s.Route != nil {
			o += ","
		}
		parts = append(parts, o)
	}
	if s.Route != nil {
		parts = append(parts, s.Route.String()+" rule "+s.Rule)
	}
	if s.Location != "" {
		parts = append(parts, s.Location)
	}
	if len(s.Backends) > 0 {
		shares := make([]string, len(s.Backends))
		for i, b := range s.Backends {
			shares[i] = b.Backend + " " + percent(b.Share)
			if b.Fails {
				shares[i] += " failing"
			}
		}
		parts = append(parts, "("+strings.Join(shares, ", ")+")")
	}
	return strings.Join(parts, " ")
}

func (c conditionChange) where() string {
	s := c.Object.String()
	if c.Scope != "" {
		s += " (" + c.Scope + ")"
	}
	return s
}

func (s *conditionState) text() string {
	if s == nil {
		return "absent"
	}
	return s.Status + " " + s.Reason
}

func (c backendChange) where() string {
	return fmt.Sprintf("%s rule %s → %s", c.Route, c.Rule, c.Backend)
}

// text renders a backend's share: "20%", "20% HTTP 500 (BackendNotFound)".
func (s *backendState) text(routeKind string) string {
	if s == nil {
		return "absent"
	}
	out := percent(s.Share)
	if s.Fails {
		fate := "dropped"
		if routeKind == "HTTPRoute" || routeKind == "GRPCRoute" {
			fate = "HTTP 500"
		}
		out += " " + fate + " (" + s.Reason + ")"
	}
	return out
}

func (c conditionChange) change() string { return changeOf(c.Old, c.New) }

func (c backendChange) change() string { return changeOf(c.Old, c.New) }

// changeOf names a change by which of its sides exist.
func changeOf[T any](old, new *T) string {
	switch {
	case old == nil:
		return "added"
	case new == nil:
		return "removed"
	}
	return "changed"
}

// change names a policy change: gained, lost or changed.
func (c policyChange) change() string {
	switch {
	case c.Old == "":
		return "gained"
	case c.New == "":
		return "lost"
	}
	return "changed"
}

// where is "BackendTrafficPolicy... infra/retries → HTTPRoute shop/web
// section api".
func (c policyChange) where() string {
	s := c.Policy.String() + " → " + c.Object.String()
	if c.Section != "" {
		s += " section " + c.Section
	}
	return s
}

func orAbsent(state string) string { return cmp.Or(state, "absent") }

func (f findingChange) text() string {
	s := f.Severity + " " + f.Rule
	if f.Object != "" {
		s += ": " + f.Object
	}
	if f.Path != "" {
		s += " " + f.Path
	}
	return s + ": " + f.Message
}

var changeMark = map[string]string{"gained": "+", "lost": "-", "added": "+", "removed": "-", "changed": "~", "new": "+", "fixed": "-"}

func writeDiffText(p *printer, v *diffView) {
	p.line(0, "%s %s → %s: %s", p.pal.heading.Sprint("diff"), v.Old, v.New, v.summary())
	if len(v.Attachments) > 0 {
		p.blank()
		p.heading("Attachments")
		for _, a := range v.Attachments {
			line := changeMark[a.Change] + " " + a.text()
			if a.Change == "lost" {
				line = p.pal.bad.Sprint(line)
				if w := a.why(); w != "" {
					line += ": " + w
				}
			} else {
				line = p.pal.good.Sprint(line)
			}
			p.line(1, "%s", line)
		}
	}
	if len(v.Hostnames) > 0 {
		p.blank()
		p.heading("Hostnames")
		for _, h := range v.Hostnames {
			p.line(1, "%s %s", changeMark[h.Change], h.text())
		}
	}
	if len(v.Conditions) > 0 {
		p.blank()
		p.heading("Status conditions")
		for _, c := range v.Conditions {
			p.line(1, "%s %s %s: %s → %s", changeMark[c.change()], c.where(), c.Type, c.Old.text(), c.New.text())
		}
	}
	if len(v.Backends) > 0 {
		p.blank()
		p.heading("Backends")
		for _, c := range v.Backends {
			p.line(1, "%s %s: %s → %s", changeMark[c.change()], c.where(), c.Old.text(c.Route.Kind), c.New.text(c.Route.Kind))
		}
	}
	if len(v.Policies) > 0 {
		p.blank()
		p.heading("Policies")
		for _, c := range v.Policies {
			p.line(1, "%s %s: %s → %s", changeMark[c.change()], c.where(), orAbsent(c.Old), orAbsent(c.New))
		}
	}
	if len(v.Requests) > 0 {
		p.blank()
		p.heading("Requests that would now go elsewhere")
		for _, r := range v.Requests {
			p.line(1, "~ %s", r.Request)
			p.line(2, "%s → %s", r.Old.text(), r.New.text())
		}
	}
	if len(v.Findings) > 0 {
		p.blank()
		p.heading("Findings")
		for _, f := range v.Findings {
			mark := changeMark[f.Change] + " " + f.Change
			if f.Change == "new" {
				mark = p.pal.bad.Sprint(mark)
			} else {
				mark = p.pal.good.Sprint(mark)
			}
			p.line(1, "%s %s   (%s)", mark, f.text(), f.Source)
		}
	}
}

// writeDiffMarkdown renders v for a pull-request comment: a heading with
// the summary, then a table per kind of change.
func writeDiffMarkdown(w io.Writer, v *diffView) error {
	code := cli.MarkdownCode
	var b strings.Builder
	fmt.Fprintf(&b, "### gwctl diff %s → %s\n\n", code(v.Old), code(v.New))
	if !v.Changed {
		b.WriteString("No change in effect.\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "%s.\n", upperFirst(v.summary()))
	table := func(title string, header []string, rows [][]string) {
		if len(rows) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n#### %s\n\n| %s |\n|%s\n", title, strings.Join(header, " | "), strings.Repeat(" --- |", len(header)))
		for _, r := range rows {
			for i := range r {
				r[i] = cli.MarkdownCell(r[i])
			}
			fmt.Fprintf(&b, "| %s |\n", strings.Join(r, " | "))
		}
	}
	var rows [][]string
	for _, a := range v.Attachments {
		rows = append(rows, []string{a.Change, code(a.Route.String()), code(a.Parent.String()), a.Listener, a.why()})
	}
	table("Attachments", []string{"change", "route", "parent", "listener / port", "why"}, rows)
	rows = nil
	for _, h := range v.Hostnames {
		rows = append(rows, []string{h.Change, code(h.Route.String()), code(h.Parent.String()), h.Listener, code(h.Hostname)})
	}
	table("Hostnames", []string{"change", "route", "parent", "listener", "hostname"}, rows)
	rows = nil
	for _, c := range v.Conditions {
		rows = append(rows, []string{code(c.Object.String()), c.Scope, c.Type, c.Old.text(), c.New.text()})
	}
	table("Status conditions", []string{"object", "where", "condition", "old", "new"}, rows)
	rows = nil
	for _, c := range v.Backends {
		rows = append(rows, []string{c.change(), code(c.Route.String()), c.Rule, code(c.Backend), c.Old.text(c.Route.Kind), c.New.text(c.Route.Kind)})
	}
	table("Backends", []string{"change", "route", "rule", "backend", "old", "new"}, rows)
	rows = nil
	for _, c := range v.Policies {
		rows = append(rows, []string{c.change(), code(c.Policy.String()), code(c.Object.String()), c.Section, orAbsent(c.Old), orAbsent(c.New)})
	}
	table("Policies", []string{"change", "policy", "object", "section", "old", "new"}, rows)
	rows = nil
	for _, r := range v.Requests {
		rows = append(rows, []string{code(r.Request), r.Old.text(), r.New.text()})
	}
	table("Requests that would now go elsewhere", []string{"request", "old", "new"}, rows)
	rows = nil
	for _, f := range v.Findings {
		rows = append(rows, []string{f.Change, f.Severity, code(f.Rule), code(f.Object), code(f.Path), f.Message, code(f.Source)})
	}
	table("Findings", []string{"change", "severity", "rule", "object", "path", "message", "source"}, rows)
	_, err := io.WriteString(w, b.String())
	return err
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
