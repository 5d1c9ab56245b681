package manifest

import (
	"bytes"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"go.yaml.in/yaml/v3"
)

// fastParser parses the block-style YAML that Kubernetes manifests are
// written in into the same yaml.Node trees as yaml.v3 (comments aside),
// several times faster. Whatever it is not certain to read exactly as
// yaml.v3 does (anchors, tags, multi-line plain or quoted scalars,
// multi-line flow collections, tabs, CRLF, ...) makes it give up on the
// whole file, which yaml.v3 then reads, reporting any syntax error.
//
// One worker reuses one fastParser from file to file, and the nodes and
// content slices come from arenas reset on every parse: the trees are valid
// only until the next call. Scalar values are views of the data (but for
// those with escapes or folded from several lines), valid as long as it
// is: what outlives a file's conversion is copied (headerString, keyID,
// the JSON).
type fastParser struct {
	// bug is the panic, other than a bail, that ended the last parse.
	bug any

	data  []byte
	line  int // 1-based number of the current line
	ls    int // offset of the current line's start
	le    int // offset of its end (its '\n' or len(data))
	pos   int // offset being read, within the current line
	ind   int // column of the current line's first non-space (see skipEmpty)
	eof   bool
	depth int

	colLs, colPos, colVal int // the last column computed: see col

	nodes []yaml.Node  // node arena
	ptrs  []*yaml.Node // content arena
	stack []*yaml.Node // children of the collections being parsed
	docs  []*yaml.Node // documents of this parse
	buf   []byte       // unescaped scalar text
}

const (
	// maxFastDepth bounds nesting; deeper input goes to yaml.v3 (and the
	// converter's maxDepth check).
	maxFastDepth = 500
	// maxSimpleKeyLen stays below libyaml's 1024-character limit on simple keys.
	maxSimpleKeyLen = 1000
)

// fastBail is the panic that abandons a fast parse.
type fastBail struct{}

func giveUp() { panic(fastBail{}) }

// parse returns one DocumentNode per document of data, as successive calls
// of yaml.v3's Decoder.Decode would, or ok=false if data is outside the
// subset. data holds only the characters the fast parser knows (scanText
// says fast); its first line is line of its file.
func (p *fastParser) parse(data []byte, line int) (docs []*yaml.Node, ok bool) {
	p.data, p.line, p.ls, p.pos, p.eof, p.depth = data, line, 0, 0, false, 0
	p.colLs, p.colPos, p.colVal = 0, 0, 1
	p.le = fastLineEnd(data, 0)
	p.nodes, p.ptrs, p.stack, p.docs = p.nodes[:0], p.ptrs[:0], p.stack[:0], p.docs[:0]
	p.bug = nil
	defer func() {
		if v := recover(); v != nil {
			// A bug here must not cost the user the file: yaml.v3 reads
			// it instead. Tests fail on p.bug.
			if _, isBail := v.(fastBail); !isBail {
				p.bug = v
			}
			docs, ok = nil, false
		}
		p.data = nil
	}()
	p.stream()
	return p.docs, true
}

func fastLineEnd(data []byte, from int) int {
	if from >= len(data) {
		return len(data)
	}
	if i := bytes.IndexByte(data[from:], '\n'); i >= 0 {
		return from + i
	}
	return len(data)
}

func (p *fastParser) nextLine() {
	p.ls = p.le + 1
	p.line++
	p.le = fastLineEnd(p.data, p.ls)
	p.pos = p.ls
}

// skipEmpty moves to the next line with content (from the current one),
// setting ind and pos to its first non-space, or sets eof.
func (p *fastParser) skipEmpty() {
	for p.ls < len(p.data) {
		i := p.ls
		for i < p.le && p.data[i] == ' ' {
			i++
		}
		if i < p.le && p.data[i] != '#' {
			p.ind, p.pos = i-p.ls, i
			if p.ind == 0 && p.data[i] == '%' {
				giveUp() // a directive
			}
			return
		}
		p.nextLine()
	}
	p.eof = true
}

// marker reports whether the current line starts with the document marker m.
func (p *fastParser) marker(m string) bool {
	return p.le-p.ls >= 3 && string(p.data[p.ls:p.ls+3]) == m && (p.le-p.ls == 3 || p.data[p.ls+3] == ' ')
}

// more reports whether the current document goes on at the current line.
func (p *fastParser) more() bool {
	return !p.eof && !(p.ind == 0 && (p.marker("---") || p.marker("...")))
}

// col is the 1-based column of offset i on the current line; libyaml counts
// characters. Counting on from the last offset asked keeps long lines (a
// one-line flow collection) linear.
func (p *fastParser) col(i int) int {
	if p.colLs != p.ls || i < p.colPos {
		p.colLs, p.colPos, p.colVal = p.ls, p.ls, 1
	}
	p.colVal += utf8.RuneCount(p.data[p.colPos:i])
	p.colPos = i
	return p.colVal
}

func (p *fastParser) node(kind yaml.Kind, style yaml.Style, tag, value string, line, col int) *yaml.Node {
	if len(p.nodes) == cap(p.nodes) {
		// Nodes handed out keep the old arena alive.
		p.nodes = make([]yaml.Node, 0, max(2*cap(p.nodes), 256))
	}
	p.nodes = append(p.nodes, yaml.Node{Kind: kind, Style: style, Tag: tag, Value: value, Line: line, Column: col})
	return &p.nodes[len(p.nodes)-1]
}

// content moves the children stacked since mark into a content slice.
func (p *fastParser) content(mark int) []*yaml.Node {
	n := len(p.stack) - mark
	if n == 0 {
		return nil
	}
	if cap(p.ptrs)-len(p.ptrs) < n {
		p.ptrs = make([]*yaml.Node, 0, max(2*cap(p.ptrs), n, 1024))
	}
	start := len(p.ptrs)
	p.ptrs = append(p.ptrs, p.stack[mark:]...)
	p.stack = p.stack[:mark]
	return p.ptrs[start:len(p.ptrs):len(p.ptrs)]
}

// view is the text of b, a slice of the data being parsed, without a
// copy: it is valid as long as the data (the converter copies what it
// keeps).
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// stream parses the documents of the file.
func (p *fastParser) stream() {
	var doc *yaml.Node // an explicit document still waiting for its content
	ended := false     // a document has ended: "..." may follow, content may not
	for p.skipEmpty(); !p.eof; p.skipEmpty() {
		if p.ind == 0 && (p.marker("---") || p.marker("...")) {
			start := p.data[p.ls] == '-'
			switch {
			case doc != nil:
				p.emptyDocument(doc)
				doc = nil
			case !start && !ended:
				giveUp() // "..." before any document is an error
			}
			if start {
				doc = p.node(yaml.DocumentNode, 0, "", "", p.line, 1)
			}
			ended = !start
			p.pos = p.ls + 3
			p.endOfLine()
			p.nextLine()
			continue
		}
		if ended {
			giveUp() // content after "..." needs a "---"
		}
		if doc == nil {
			doc = p.node(yaml.DocumentNode, 0, "", "", p.line, p.ind+1)
		}
		mark := len(p.stack)
		p.stack = append(p.stack, p.blockNode(-1, false))
		doc.Content = p.content(mark)
		p.docs = append(p.docs, doc)
		doc, ended = nil, true
		if p.more() {
			giveUp()
		}
	}
	if doc != nil {
		p.emptyDocument(doc)
	}
}

// emptyDocument completes a document with no content: libyaml gives it a
// null scalar where the next token (a "---", a "..." or the end) starts.
func (p *fastParser) emptyDocument(doc *yaml.Node) {
	mark := len(p.stack)
	p.stack = append(p.stack, p.node(yaml.ScalarNode, 0, "!!null", "", p.line, 1))
	doc.Content = p.content(mark)
	p.docs = append(p.docs, doc)
}

// endOfLine checks that only spaces and a comment follow pos on the line.
func (p *fastParser) endOfLine() {
	i := p.pos
	for i < p.le && p.data[i] == ' ' {
		i++
	}
	if i < p.le && (p.data[i] != '#' || i == 0 || p.data[i-1] != ' ') {
		giveUp()
	}
}

// finishLine ends a node that ends on the current line and moves to the
// next content, which must not be indented beyond indent (libyaml's
// parser.indent): that would continue a plain scalar, or be an error.
func (p *fastParser) finishLine(indent int) {
	p.endOfLine()
	p.nextLine()
	p.skipEmpty()
	if p.more() && p.ind > indent {
		giveUp()
	}
}

// blockNode parses the node starting at pos. indent is libyaml's
// parser.indent: the column of the enclosing block collection, -1 at the
// top. afterKey is set for a value on the line of its key, where only a
// scalar or flow collection may be. It returns at the next content line.
func (p *fastParser) blockNode(indent int, afterKey bool) *yaml.Node {
	if p.depth++; p.depth > maxFastDepth {
		giveUp()
	}
	defer func() { p.depth-- }()
	d := p.data
	switch c := d[p.pos]; {
	case c == '-' && (p.pos+1 == p.le || d[p.pos+1] == ' '):
		if afterKey {
			giveUp()
		}
		return p.blockSequence(p.pos - p.ls)
	case c == '|' || c == '>':
		return p.blockScalar(indent)
	case c == '[' || c == '{':
		n := p.flowNode()
		p.finishLine(indent)
		return n
	}
	line, col, at := p.line, p.col(p.pos), p.pos-p.ls
	n, isKey := p.lineScalar()
	if !isKey {
		p.finishLine(indent)
		return n
	}
	if afterKey {
		giveUp() // "a: b: c"
	}
	return p.blockMapping(at, n, line, col)
}

// lineScalar parses a plain or quoted scalar in block context, saying
// whether a ':' makes it a mapping key. After a key, pos is past the ':'.
func (p *fastParser) lineScalar() (*yaml.Node, bool) {
	d := p.data
	start, line, col := p.pos, p.line, p.col(p.pos)
	var n *yaml.Node
	switch d[start] {
	case '"', '\'':
		n = p.quoted(line, col)
		i := p.pos
		for i < p.le && d[i] == ' ' {
			i++
		}
		if i < p.le && d[i] == ':' && (i+1 == p.le || d[i+1] == ' ') {
			if i-start > maxSimpleKeyLen {
				giveUp()
			}
			p.pos = i + 1
			return n, true
		}
		return n, false
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '%', '@', '`':
		giveUp()
	case '-':
		if start+1 == p.le || d[start+1] == ' ' {
			giveUp() // a sequence entry where a key should be
		}
	}
	end := start // end of the text, without trailing spaces
	i := start
	for ; i < p.le; i++ {
		c := d[i]
		if c == ' ' {
			continue
		}
		if c == '#' && d[i-1] == ' ' {
			break
		}
		if c == ':' && (i+1 == p.le || d[i+1] == ' ') {
			if i-start > maxSimpleKeyLen {
				giveUp()
			}
			value := view(d[start:end])
			p.pos = i + 1
			return p.node(yaml.ScalarNode, 0, plainTag(value), value, line, col), true
		}
		end = i + 1
	}
	value := view(d[start:end])
	p.pos = i
	return p.node(yaml.ScalarNode, 0, plainTag(value), value, line, col), false
}

// quoted parses a single-line quoted scalar at pos.
func (p *fastParser) quoted(line, col int) *yaml.Node {
	d := p.data
	q := d[p.pos]
	i := p.pos + 1
	start := i
	escaped := false
	buf := p.buf[:0]
	for ; ; i++ {
		if i >= p.le {
			giveUp() // goes on over lines
		}
		c := d[i]
		if c == q {
			if q == '\'' && i+1 < p.le && d[i+1] == '\'' {
				buf = append(buf, '\'')
				escaped = true
				i++
				continue
			}
			break
		}
		if c == '\\' && q == '"' {
			var ok bool
			if buf, i, ok = unescapeYAML(buf, d, i, p.le); !ok {
				giveUp()
			}
			escaped = true
			continue
		}
		buf = append(buf, c)
	}
	p.buf = buf
	var value string
	if escaped {
		value = string(buf)
	} else {
		value = view(d[start:i])
	}
	p.pos = i + 1
	style := yaml.DoubleQuotedStyle
	if q == '\'' {
		style = yaml.SingleQuotedStyle
	}
	return p.node(yaml.ScalarNode, style, "!!str", value, line, col)
}

// unescapeYAML appends the escape sequence at d[i] (a backslash) as libyaml
// decodes it and returns the offset of its last byte; ok is false for
// invalid escapes and for a backslash ending the line.
func unescapeYAML(buf, d []byte, i, end int) ([]byte, int, bool) {
	if i+1 >= end {
		return buf, i, false
	}
	n := 0
	switch d[i+1] {
	case '0':
		buf = append(buf, 0)
	case 'a':
		buf = append(buf, '\a')
	case 'b':
		buf = append(buf, '\b')
	case 't':
		buf = append(buf, '\t')
	case 'n':
		buf = append(buf, '\n')
	case 'v':
		buf = append(buf, '\v')
	case 'f':
		buf = append(buf, '\f')
	case 'r':
		buf = append(buf, '\r')
	case 'e':
		buf = append(buf, 0x1B)
	case ' ', '"', '\'', '\\':
		buf = append(buf, d[i+1])
	case 'N':
		buf = append(buf, "\u0085"...)
	case '_':
		buf = append(buf, "\u00a0"...)
	case 'L':
		buf = append(buf, "\u2028"...)
	case 'P':
		buf = append(buf, "\u2029"...)
	case 'x':
		n = 2
	case 'u':
		n = 4
	case 'U':
		n = 8
	default:
		return buf, i, false
	}
	if n == 0 {
		return buf, i + 1, true
	}
	if i+2+n > end {
		return buf, i, false
	}
	v, err := strconv.ParseUint(string(d[i+2:i+2+n]), 16, 32)
	if err != nil || (v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF {
		return buf, i, false
	}
	// libyaml encodes the code point as UTF-8 whatever it is.
	return utf8.AppendRune(buf, rune(v)), i + 1 + n, true
}

// blockMapping parses a block mapping at column at (0-based, in bytes, which
// are characters: only spaces and "- " come before) whose first key has been
// read.
func (p *fastParser) blockMapping(at int, key *yaml.Node, line, col int) *yaml.Node {
	n := p.node(yaml.MappingNode, 0, "!!map", "", line, col)
	mark := len(p.stack)
	for {
		p.stack = append(p.stack, key, p.value(at))
		if !p.more() || p.ind < at {
			break
		}
		if p.ind > at {
			giveUp()
		}
		var isKey bool
		if key, isKey = p.lineScalar(); !isKey {
			giveUp()
		}
	}
	n.Content = p.content(mark)
	return n
}

// value parses the value of a key of a block mapping at column at; pos is
// past the ':'.
func (p *fastParser) value(at int) *yaml.Node {
	line, col := p.line, p.col(p.pos)
	for p.pos < p.le && p.data[p.pos] == ' ' {
		p.pos++
	}
	if p.pos < p.le && p.data[p.pos] != '#' {
		return p.blockNode(at, true)
	}
	p.nextLine()
	p.skipEmpty()
	switch {
	case p.more() && p.ind > at:
		return p.blockNode(at, false)
	case p.more() && p.ind == at && p.dash():
		return p.blockSequence(at) // "key:\n- item": the items need no indentation
	}
	return p.node(yaml.ScalarNode, 0, "!!null", "", line, col)
}

// dash reports whether pos is at a block sequence entry indicator.
func (p *fastParser) dash() bool {
	return p.data[p.pos] == '-' && (p.pos+1 == p.le || p.data[p.pos+1] == ' ')
}

// blockSequence parses a block sequence whose "-" entries are at column at.
func (p *fastParser) blockSequence(at int) *yaml.Node {
	n := p.node(yaml.SequenceNode, 0, "!!seq", "", p.line, p.col(p.pos))
	mark := len(p.stack)
	for {
		p.pos++
		line, col := p.line, p.col(p.pos)
		for p.pos < p.le && p.data[p.pos] == ' ' {
			p.pos++
		}
		var item *yaml.Node
		if p.pos < p.le && p.data[p.pos] != '#' {
			item = p.blockNode(at, false)
		} else {
			p.nextLine()
			p.skipEmpty()
			if p.more() && p.ind > at {
				item = p.blockNode(at, false)
			} else {
				item = p.node(yaml.ScalarNode, 0, "!!null", "", line, col)
			}
		}
		p.stack = append(p.stack, item)
		if !p.more() || p.ind < at {
			break
		}
		if p.ind > at {
			giveUp()
		}
		if !p.dash() {
			break // the next key of a mapping whose value this was
		}
	}
	n.Content = p.content(mark)
	return n
}

// blockScalar parses a literal (|) or folded (>) block scalar, porting
// libyaml's yaml_parser_scan_block_scalar. Explicit indentation indicators
// are left to yaml.v3.
func (p *fastParser) blockScalar(indent int) *yaml.Node {
	d := p.data
	line, col := p.line, p.col(p.pos)
	literal := d[p.pos] == '|'
	p.pos++
	chomp := 0
	if p.pos < p.le && (d[p.pos] == '+' || d[p.pos] == '-') {
		chomp = 1
		if d[p.pos] == '-' {
			chomp = -1
		}
		p.pos++
	}
	if p.pos < p.le && d[p.pos] != ' ' {
		giveUp()
	}
	p.endOfLine()
	if p.le == len(d) {
		giveUp() // no line break after the header: leave the edge case to yaml.v3
	}
	p.nextLine()

	// Leading empty lines; the first non-empty one sets the indentation.
	trailing, maxIndent := 0, 0
	spaces := func() int {
		i := p.ls
		for i < p.le && d[i] == ' ' {
			i++
		}
		return i - p.ls
	}
	for p.ls < len(d) {
		n := spaces()
		maxIndent = max(maxIndent, n)
		if p.ls+n < p.le || p.le == len(d) {
			break
		}
		trailing++
		p.nextLine()
	}
	ind := max(maxIndent, indent+1, 1)

	buf := p.buf[:0]
	leadingBreak, leadingBlank := false, false
	for p.ls < len(d) && p.ls+ind < p.le && spaces() >= ind {
		trailingBlank := d[p.ls+ind] == ' '
		if !literal && !leadingBlank && !trailingBlank && leadingBreak {
			if trailing == 0 {
				buf = append(buf, ' ')
			}
		} else if leadingBreak {
			buf = append(buf, '\n')
		}
		for ; trailing > 0; trailing-- {
			buf = append(buf, '\n')
		}
		leadingBlank = trailingBlank
		buf = append(buf, d[p.ls+ind:p.le]...)
		leadingBreak = p.le < len(d)
		if !leadingBreak {
			p.nextLine()
			break
		}
		p.nextLine()
		// Lines of up to ind spaces are line breaks.
		for p.le < len(d) && p.le-p.ls <= ind && spaces() == p.le-p.ls {
			trailing++
			p.nextLine()
		}
	}
	if chomp != -1 && leadingBreak {
		buf = append(buf, '\n')
	}
	if chomp == 1 {
		for ; trailing > 0; trailing-- {
			buf = append(buf, '\n')
		}
	}
	p.buf = buf
	style := yaml.LiteralStyle
	if !literal {
		style = yaml.FoldedStyle
	}
	n := p.node(yaml.ScalarNode, style, "!!str", string(buf), line, col)
	p.pos = p.ls
	p.skipEmpty()
	if p.more() && p.ind > indent {
		giveUp()
	}
	return n
}

// flowNode parses a flow sequence or mapping that ends on its line.
func (p *fastParser) flowNode() *yaml.Node {
	if p.depth++; p.depth > maxFastDepth {
		giveUp()
	}
	defer func() { p.depth-- }()
	d := p.data
	open := d[p.pos]
	kind, tag, closing := yaml.SequenceNode, "!!seq", byte(']')
	if open == '{' {
		kind, tag, closing = yaml.MappingNode, "!!map", '}'
	}
	n := p.node(kind, yaml.FlowStyle, tag, "", p.line, p.col(p.pos))
	mark := len(p.stack)
	p.pos++
	p.flowSpaces()
	if d[p.pos] == closing {
		p.pos++
		return n
	}
	for {
		if kind == yaml.MappingNode {
			start := p.pos
			k := p.flowItem(true)
			p.flowSpaces()
			if d[p.pos] != ':' || p.pos+1 >= p.le || d[p.pos+1] != ' ' || p.pos-start > maxSimpleKeyLen {
				giveUp()
			}
			p.pos++
			p.flowSpaces()
			p.stack = append(p.stack, k)
		}
		p.stack = append(p.stack, p.flowItem(false))
		p.flowSpaces()
		if d[p.pos] == closing {
			p.pos++
			break
		}
		if d[p.pos] != ',' {
			giveUp()
		}
		p.pos++
		p.flowSpaces()
		if d[p.pos] == closing {
			giveUp() // a trailing comma
		}
	}
	n.Content = p.content(mark)
	return n
}

// flowSpaces skips spaces; the flow collection must go on on this line.
func (p *fastParser) flowSpaces() {
	for p.pos < p.le && p.data[p.pos] == ' ' {
		p.pos++
	}
	if p.pos == p.le {
		giveUp()
	}
}

// flowItem parses a scalar or flow collection inside a flow collection; a
// key must be a scalar, followed by ": ".
func (p *fastParser) flowItem(key bool) *yaml.Node {
	d := p.data
	line, col := p.line, p.col(p.pos)
	switch c := d[p.pos]; c {
	case '[', '{':
		if key {
			giveUp()
		}
		return p.flowNode()
	case '"', '\'':
		return p.quoted(line, col)
	case '-':
		if p.pos+1 == p.le || !isASCIIAlnum(d[p.pos+1]) {
			giveUp()
		}
	case '?', ':', ',', ']', '}', '#', '&', '*', '!', '|', '>', '%', '@', '`':
		giveUp()
	}
	start, end := p.pos, p.pos
	i := p.pos
	for ; i < p.le; i++ {
		c := d[i]
		if c == ',' || c == ']' || c == '}' || c == '[' || c == '{' {
			break
		}
		if key && c == ':' && i+1 < p.le && d[i+1] == ' ' {
			break
		}
		if c == ':' || c == '?' || c == '#' {
			giveUp() // in flow context these end a plain scalar in ways best left to yaml.v3
		}
		if c != ' ' {
			end = i + 1
		}
	}
	if i == p.le {
		giveUp()
	}
	p.pos = i
	value := view(d[start:end])
	return p.node(yaml.ScalarNode, 0, plainTag(value), value, line, col)
}

func isASCIIAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// plainTag resolves the tag of a plain scalar exactly as yaml.v3's resolve
// does (YAML 1.2 core schema, plus 1.1 octals and timestamps).
func plainTag(s string) string {
	if s == "" {
		return "!!null"
	}
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "!!bool"
	case "~", "null", "Null", "NULL":
		return "!!null"
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return "!!float"
	case "<<":
		return "!!merge"
	}
	switch c := s[0]; {
	case c == '.':
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return "!!float"
		}
		return "!!str"
	case c != '+' && c != '-' && (c < '0' || c > '9'):
		return "!!str"
	}
	if isTimestamp(s) {
		return "!!timestamp"
	}
	plain := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return "!!int"
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return "!!int"
	}
	if isYAMLFloat(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return "!!float"
		}
	}
	var digits string
	base := 2
	switch {
	case strings.HasPrefix(plain, "0b"):
		digits = plain[2:]
	case strings.HasPrefix(plain, "-0b"):
		digits = "-" + plain[3:]
	case strings.HasPrefix(plain, "0o"):
		digits, base = plain[2:], 8
	case strings.HasPrefix(plain, "-0o"):
		digits, base = "-"+plain[3:], 8
	default:
		return "!!str"
	}
	if _, err := strconv.ParseInt(digits, base, 64); err == nil {
		return "!!int"
	}
	if !strings.HasPrefix(digits, "-") {
		if _, err := strconv.ParseUint(digits, base, 64); err == nil {
			return "!!int"
		}
	}
	return "!!str"
}

// isYAMLFloat matches yaml.v3's yamlStyleFloat:
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
func isYAMLFloat(s string) bool {
	i := 0
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// isTimestamp is yaml.v3's parseTimestamp, which tags a plain scalar
// !!timestamp when it starts with four digits and a dash and parses in one
// of these layouts.
func isTimestamp(s string) bool {
	i := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, layout := range [...]string{
		"2006-1-2T15:4:5.999999999Z07:00",
		"2006-1-2t15:4:5.999999999Z07:00",
		"2006-1-2 15:4:5.999999999",
		"2006-1-2",
	} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}
