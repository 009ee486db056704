package grammar

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// tcode is what a token spells: one of the grammar's symbols or words, or
// cNone. Words match names and keywords in any case, as participle's
// case-insensitive literals do; symbols match exactly.
type tcode uint8

// Token codes. The words are the ones the fast path and the depth guard
// look for.
const (
	cNone tcode = iota

	// Punctuation.
	cLParen
	cRParen
	cComma
	cDot
	cSemi
	cColons
	cTilde

	// Binary operators (BinOp tokens).
	cConcat
	cJSONText
	cJSON
	cShl
	cShr
	cLe
	cGe
	cEqEq
	cNe
	cLtGt
	cMinus
	cPlus
	cStar
	cSlash
	cPercent
	cAmp
	cPipe
	cLt
	cGt
	cEq

	// Words.
	cABORT
	cALL
	cAND
	cAS
	cASC
	cBETWEEN
	cBY
	cCASE
	cCAST
	cCHECK
	cCOLLATE
	cCONFLICT
	cCONSTRAINT
	cCREATE
	cCROSS
	cCURRENT
	cCURRENT_DATE
	cCURRENT_TIME
	cCURRENT_TIMESTAMP
	cDEFAULT
	cDELETE
	cDESC
	cDISTINCT
	cDO
	cELSE
	cEND
	cESCAPE
	cEXCEPT
	cEXCLUDE
	cEXISTS
	cEXPLAIN
	cFAIL
	cFALSE
	cFETCH
	cFILTER
	cFIRST
	cFOLLOWING
	cFOREIGN
	cFROM
	cFULL
	cGENERATED
	cGLOB
	cGRAPH_TABLE
	cGROUP
	cGROUPS
	cHAVING
	cIF
	cIGNORE
	cILIKE
	cIN
	cINDEXED
	cINNER
	cINSERT
	cINTERSECT
	cINTO
	cIS
	cISNULL
	cJOIN
	cLAST
	cLEFT
	cLIKE
	cLIMIT
	cMATCH
	cMATERIALIZED
	cNATURAL
	cNO
	cNOT
	cNOTHING
	cNOTNULL
	cNULL
	cNULLS
	cOFFSET
	cON
	cOR
	cORDER
	cOTHERS
	cOUTER
	cOVER
	cPARTITION
	cPRECEDING
	cPRIMARY
	cRAISE
	cRANGE
	cRECURSIVE
	cREGEXP
	cREPLACE
	cRETURNING
	cRIGHT
	cROLLBACK
	cROW
	cROWS
	cSELECT
	cSET
	cTABLE
	cTEMP
	cTEMPORARY
	cTHEN
	cTIES
	cTRUE
	cUNBOUNDED
	cUNION
	cUNIQUE
	cUPDATE
	cUSING
	cVALUES
	cWHEN
	cWHERE
	cWINDOW
	cWITH

	numCodes
)

// firstWord is the first word code.
const firstWord = cABORT

// codeText is the spelling of every code.
var codeText = [numCodes]string{
	cLParen: "(", cRParen: ")", cComma: ",", cDot: ".", cSemi: ";", cColons: "::", cTilde: "~",
	cConcat: "||", cJSONText: "->>", cJSON: "->", cShl: "<<", cShr: ">>", cLe: "<=", cGe: ">=",
	cEqEq: "==", cNe: "!=", cLtGt: "<>", cMinus: "-", cPlus: "+", cStar: "*", cSlash: "/",
	cPercent: "%", cAmp: "&", cPipe: "|", cLt: "<", cGt: ">", cEq: "=",

	cABORT: "ABORT", cALL: "ALL", cAND: "AND", cAS: "AS", cASC: "ASC", cBETWEEN: "BETWEEN", cBY: "BY",
	cCASE: "CASE", cCAST: "CAST", cCHECK: "CHECK", cCOLLATE: "COLLATE", cCONFLICT: "CONFLICT",
	cCONSTRAINT: "CONSTRAINT", cCREATE: "CREATE", cCROSS: "CROSS", cCURRENT: "CURRENT",
	cCURRENT_DATE: "CURRENT_DATE", cCURRENT_TIME: "CURRENT_TIME", cCURRENT_TIMESTAMP: "CURRENT_TIMESTAMP",
	cDEFAULT: "DEFAULT", cDELETE: "DELETE", cDESC: "DESC", cDISTINCT: "DISTINCT", cDO: "DO",
	cELSE: "ELSE", cEND: "END", cESCAPE: "ESCAPE", cEXCEPT: "EXCEPT", cEXCLUDE: "EXCLUDE",
	cEXISTS: "EXISTS", cEXPLAIN: "EXPLAIN", cFAIL: "FAIL", cFALSE: "FALSE", cFETCH: "FETCH",
	cFILTER: "FILTER", cFIRST: "FIRST", cFOLLOWING: "FOLLOWING", cFOREIGN: "FOREIGN", cFROM: "FROM",
	cFULL: "FULL", cGENERATED: "GENERATED", cGLOB: "GLOB", cGRAPH_TABLE: "GRAPH_TABLE", cGROUP: "GROUP",
	cGROUPS: "GROUPS", cHAVING: "HAVING", cIF: "IF", cIGNORE: "IGNORE", cILIKE: "ILIKE", cIN: "IN",
	cINDEXED: "INDEXED", cINNER: "INNER", cINSERT: "INSERT", cINTERSECT: "INTERSECT", cINTO: "INTO",
	cIS: "IS", cISNULL: "ISNULL", cJOIN: "JOIN", cLAST: "LAST", cLEFT: "LEFT", cLIKE: "LIKE",
	cLIMIT: "LIMIT", cMATCH: "MATCH", cMATERIALIZED: "MATERIALIZED", cNATURAL: "NATURAL", cNO: "NO",
	cNOT: "NOT", cNOTHING: "NOTHING", cNOTNULL: "NOTNULL", cNULL: "NULL", cNULLS: "NULLS",
	cOFFSET: "OFFSET", cON: "ON", cOR: "OR", cORDER: "ORDER", cOTHERS: "OTHERS", cOUTER: "OUTER",
	cOVER: "OVER", cPARTITION: "PARTITION", cPRECEDING: "PRECEDING", cPRIMARY: "PRIMARY",
	cRAISE: "RAISE", cRANGE: "RANGE", cRECURSIVE: "RECURSIVE", cREGEXP: "REGEXP", cREPLACE: "REPLACE",
	cRETURNING: "RETURNING", cRIGHT: "RIGHT", cROLLBACK: "ROLLBACK", cROW: "ROW", cROWS: "ROWS",
	cSELECT: "SELECT", cSET: "SET", cTABLE: "TABLE", cTEMP: "TEMP", cTEMPORARY: "TEMPORARY",
	cTHEN: "THEN", cTIES: "TIES", cTRUE: "TRUE", cUNBOUNDED: "UNBOUNDED", cUNION: "UNION",
	cUNIQUE: "UNIQUE", cUPDATE: "UPDATE", cUSING: "USING", cVALUES: "VALUES", cWHEN: "WHEN",
	cWHERE: "WHERE", cWINDOW: "WINDOW", cWITH: "WITH",
}

// wordInfo is what the lexer needs to know of an upper-case word.
type wordInfo struct {
	code     tcode
	reserved bool
}

// wordSlot is one entry of wordTable: an upper-case word and what the
// lexer needs to know of it.
type wordSlot struct {
	word string
	info wordInfo
}

// wordTable holds every reserved word and every word with a code, upper
// case, by wordHash with linear probing: a lookup hashes the word once and
// compares it with a slot or two, cheaper than a map. Its length is a
// power of two at least twice the number of words, worked out from the
// words themselves, so a probe always reaches an empty slot; wordMask is
// its length less one.
var wordTable, wordMask = func() ([]wordSlot, uint32) {
	m := map[string]wordInfo{}
	for w := range reservedWords {
		m[w] = wordInfo{reserved: true}
	}
	for c := firstWord; c < numCodes; c++ {
		wi := m[codeText[c]]
		wi.code = c
		m[codeText[c]] = wi
	}
	size := 1
	for size < 2*len(m) {
		size *= 2
	}
	t, mask := make([]wordSlot, size), uint32(size-1)
	for w, wi := range m {
		h := wordHash([]byte(w)) & mask
		for t[h].word != "" {
			h = (h + 1) & mask
		}
		t[h] = wordSlot{w, wi}
	}
	return t, mask
}()

// wordHash is the hash of the upper-case word w; a probe starts at its
// slot under wordMask.
func wordHash(w []byte) uint32 {
	h := uint32(len(w))
	for _, c := range w {
		h = h*31 + uint32(c)
	}
	return h
}

// lookupUpper returns what wordTable holds for the upper-case word w.
func lookupUpper(w []byte) wordInfo {
	for h := wordHash(w) & wordMask; wordTable[h].word != ""; h = (h + 1) & wordMask {
		if wordTable[h].word == string(w) {
			return wordTable[h].info
		}
	}
	return wordInfo{}
}

// lookupWord returns the code of a name token and whether it is reserved
// (isReservedBytes), without allocating. foreign is set for a word with
// non-ASCII bytes that folds to a word of the grammar (strings.EqualFold,
// participle's matching): the fast path leaves such texts to participle.
func lookupWord(word string) (code tcode, reserved, foreign bool) {
	if len(word) > maxKeywordLen || len(word) < 2 {
		return cNone, false, false
	}
	var buf [maxKeywordLen]byte
	for i := 0; i < len(word); i++ {
		c := word[i]
		if isDigit(c) || c == '$' {
			// No word has one, in any case folding.
			return cNone, false, false
		}
		if c >= 0x80 {
			return cNone, isReservedBytes(word), foldsToWord(word) != cNone
		}
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		buf[i] = c
	}
	wi := lookupUpper(buf[:len(word)])
	return wi.code, wi.reserved, false
}

// foldsToWord is the code of the grammar word that word equals under
// strings.EqualFold, or cNone.
func foldsToWord(word string) tcode {
	for c := firstWord; c < numCodes; c++ {
		if strings.EqualFold(word, codeText[c]) {
			return c
		}
	}
	return cNone
}

// symbolCode is the code of a BinOp or Punct token.
func symbolCode(v string) tcode {
	if len(v) == 1 {
		switch v[0] {
		case '(':
			return cLParen
		case ')':
			return cRParen
		case ',':
			return cComma
		case '.':
			return cDot
		case ';':
			return cSemi
		case '~':
			return cTilde
		case '-':
			return cMinus
		case '+':
			return cPlus
		case '*':
			return cStar
		case '/':
			return cSlash
		case '%':
			return cPercent
		case '&':
			return cAmp
		case '|':
			return cPipe
		case '<':
			return cLt
		case '>':
			return cGt
		case '=':
			return cEq
		}
		return cNone
	}
	switch v {
	case "::":
		return cColons
	case "||":
		return cConcat
	case "->>":
		return cJSONText
	case "->":
		return cJSON
	case "<<":
		return cShl
	case ">>":
		return cShr
	case "<=":
		return cLe
	case ">=":
		return cGe
	case "==":
		return cEqEq
	case "!=":
		return cNe
	case "<>":
		return cLtGt
	}
	return cNone
}

// tokenCode is the code of a participle token, for the depth guard of
// the participle path: symbols exactly, words folded as participle does.
func tokenCode(t *lexer.Token) tcode {
	switch t.Type {
	case tokIdent, tokKeyword:
		code, _, _ := lookupWord(t.Value)
		if code == cNone && !isASCII(t.Value) {
			code = foldsToWord(t.Value)
		}
		return code
	case tokBinOp, tokPunct:
		return symbolCode(t.Value)
	}
	return cNone
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// opOf is the binary operator of each operator code.
var opOf = [numCodes]BinaryOp{
	cConcat: OpConcat, cJSONText: OpJSONExtractText, cJSON: OpJSONExtract, cShl: OpShl, cShr: OpShr,
	cLe: OpLe, cGe: OpGe, cEqEq: OpEq, cNe: OpNe, cLtGt: OpNe, cMinus: OpSub, cPlus: OpAdd,
	cStar: OpMul, cSlash: OpDiv, cPercent: OpMod, cAmp: OpBitAnd, cPipe: OpBitOr, cLt: OpLt,
	cGt: OpGt, cEq: OpEq, cAND: OpAnd, cOR: OpOr,
}
