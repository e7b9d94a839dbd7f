// SPDX-License-Identifier: GPL-2.0-only
/*
 * The condition of a -F filter ("EVENT: CONDITION") read the way libtraceevent 1.7.1's
 * process_filter() reads it, to find before it does the strings it would crash on.
 *
 * Its grammar is a state machine more than a grammar, and ktrace must accept exactly what it
 * accepts (a filter that works in trace-cmd works here, with the same records), so this file
 * follows the machine step by step instead of a cleaner grammar:
 *  - a condition is ITEM OP ITEM, '(' ... ')' or '!' followed by one condition, joined by && and
 *    || from left to right without precedence;
 *  - a value after a complete condition starts a new one that replaces it ("a == 1 b == 2" is
 *    "b == 2"), and so does an arithmetic operator after a comparison ("pid >= -1" is
 *    "pid - 1");
 *  - a name that is not a field of the event is false; a comparison of it is false too.
 * Where the library would fail, this says why and where; where it would accept something
 * that later crashes (an operand missing at the end, a division by zero or by a field that
 * can be zero, CPU compared with a string), this refuses it too. Only printable ASCII is
 * taken (and blanks outside quotes): the library ends the string at any other byte.
 */
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report_filter_check.h"

/* deeper '(' or '!' nesting than this is refused: the library recurses once per level */
#define MAX_NESTING 64

enum tok_type { TOK_END, TOK_ITEM, TOK_SQUOTE, TOK_DQUOTE, TOK_DELIM, TOK_OP };

struct token {
	enum tok_type type;
	size_t col;		/* 1-based, in the whole -F string */
	struct strbuf text;	/* quotes: their content; the rest: the token */
};

enum node_kind {
	N_NUMBER, N_STRING, N_CHAR, N_FIELD, N_UNKNOWN,	/* items */
	N_FALSE,	/* a string comparison of an unknown name */
	N_LOGIC,	/* && || ! */
	N_ARITH,	/* + - * / % >> << & | ^ ~ */
	N_COMPARE,	/* == != < <= > >= =~ !~ on numbers, until a string makes it N_STRCMP */
	N_STRCMP,
};

struct node {
	enum node_kind kind;
	char op[3];
	size_t col;
	int left, right;	/* node indexes, -1: none */
	unsigned long long value;	/* N_NUMBER */
	bool cpu;		/* N_FIELD / N_STRCMP: the CPU pseudo-field */
	int bytes;		/* N_FIELD: its size when libtraceevent cannot read it as a number */
	size_t len;		/* N_STRING / N_CHAR: length */
	size_t src_len;		/* items: their length in the -F string */
	bool noted;		/* its "matches nothing" note is written */
};

struct expr_parser {
	const char *s;		/* the whole -F string */
	size_t pos, end;
	struct tep_event *event;
	struct node *nodes;
	int nr_nodes, alloc_nodes;
	struct token tok;
	size_t last_col;
	struct strbuf *err;
	void (*unknown)(void *arg, const char *name, size_t col);
	void *arg;
	struct strbuf *never;	/* notes on what can match no record, or NULL */
};

/* what a level ends with; PARSE_MORE: the token is taken, read the next one */
enum { PARSE_FAILED = -1, PARSE_END, PARSE_CLOSED, PARSE_MORE };

static int fail(struct expr_parser *p, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct expr_parser *p, size_t col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(p->err, fmt, ap);
	va_end(ap);
	strbuf_addf(p->err, " (column %zu)", col);
	return PARSE_FAILED;
}

/* --- the tokenizer: libtraceevent's __read_token() and filter_read_token() --- */

static int peek(const struct expr_parser *p)
{
	return p->pos < p->end ? (unsigned char)p->s[p->pos] : -1;
}

static int next_char(struct expr_parser *p)
{
	return p->pos < p->end ? (unsigned char)p->s[p->pos++] : -1;
}

static bool is_item_char(int c)
{
	return c >= 0 && (isalnum(c) || c == '_');
}

/* A quoted string: up to the quote not after a backslash; "a" "b" is "ab". */
static int read_quoted(struct expr_parser *p, int quote)
{
	size_t start = p->tok.col;
	int c = quote, last;

	for (;;) {
		do {
			last = c;
			c = next_char(p);
			if (c < 0)
				return fail(p, start, "the string that starts here has no closing %c",
					    quote);
			if (!isprint(c))
				return fail(p, p->pos, "only printable characters can be quoted, "
					    "libtraceevent ends the string at byte 0x%02x", c);
			strbuf_addch(&p->tok.text, c);
			if (c == '\\' && last == '\\')
				last = 0;
		} while (c != quote || last == '\\');
		p->tok.text.len--;	/* the closing quote */
		p->tok.text.buf[p->tok.text.len] = 0;
		if (quote == '"') {
			size_t save = p->pos;

			while (peek(p) >= 0 && isspace(peek(p)))
				p->pos++;
			if (peek(p) == '"') {
				c = next_char(p);
				continue;
			}
			p->pos = save;
		}
		return 0;
	}
}

static void read_op(struct expr_parser *p, int c)
{
	int n = peek(p);

	strbuf_addch(&p->tok.text, c);
	switch (c) {
	case '-':
		if (n == '>') {
			strbuf_addch(&p->tok.text, next_char(p));
			return;
		}
		/* fall through */
	case '+': case '|': case '&': case '>': case '<':
		if (n == c) {
			strbuf_addch(&p->tok.text, next_char(p));
			if (c != '>' && c != '<')
				return;
		}
		break;
	case '!': case '=':
		break;
	default:
		return;
	}
	if (peek(p) == '=')
		strbuf_addch(&p->tok.text, next_char(p));
}

/* The three names the library's tokenizer turns into strings (a workaround for mac80211). */
static const char *forced_string(const char *item)
{
	if (!strcmp(item, "LOCAL_PR_FMT"))
		return "%s";
	if (!strcmp(item, "STA_PR_FMT"))
		return " sta:%pM";
	if (!strcmp(item, "VIF_PR_FMT"))
		return " vif:%p(%d)";
	return NULL;
}

/*
 * The library's read_token() joins a token that reads "=" or "!" with a '~' right after it,
 * whatever the token: the operators =~ and !~, but also the strings "=" and "!" (which become
 * the strings "=~" and "!~", the '~' gone).
 */
static void join_tilde(struct expr_parser *p)
{
	if ((!strcmp(p->tok.text.buf, "=") || !strcmp(p->tok.text.buf, "!")) && peek(p) == '~')
		strbuf_addch(&p->tok.text, next_char(p));
}

static int read_token(struct expr_parser *p)
{
	const char *forced;
	int c;

	strbuf_reset(&p->tok.text);
	do {
		c = next_char(p);
	} while (c >= 0 && isspace(c));
	p->tok.col = p->pos;
	if (c < 0) {
		p->tok.type = TOK_END;
		p->tok.col = p->end + 1;
		return 0;
	}
	p->last_col = p->tok.col;
	if (!isprint(c))
		return fail(p, p->tok.col, "byte 0x%02x: libtraceevent reads only printable "
			    "ASCII and would ignore the rest of the filter", c);
	if (is_item_char(c)) {
		strbuf_addch(&p->tok.text, c);
		while (is_item_char(peek(p)))
			strbuf_addch(&p->tok.text, next_char(p));
		p->tok.type = TOK_ITEM;
		forced = forced_string(p->tok.text.buf);
		if (forced) {
			strbuf_reset(&p->tok.text);
			strbuf_addstr(&p->tok.text, forced);
			p->tok.type = TOK_DQUOTE;
		}
		return 0;
	}
	if (c == '\'' || c == '"') {
		p->tok.type = c == '"' ? TOK_DQUOTE : TOK_SQUOTE;
		strbuf_addstr(&p->tok.text, "");
		return read_quoted(p, c);
	}
	if (c == '(' || c == ')' || c == ',') {
		p->tok.type = TOK_DELIM;
		strbuf_addch(&p->tok.text, c);
		return 0;
	}
	p->tok.type = TOK_OP;
	read_op(p, c);
	return 0;
}

static int next_token(struct expr_parser *p)
{
	int ret = read_token(p);

	if (!ret && p->tok.type != TOK_END)
		join_tilde(p);
	return ret;
}

/* --- the tree --- */

static int new_node(struct expr_parser *p, enum node_kind kind, size_t col)
{
	struct node *n;

	if (p->nr_nodes == p->alloc_nodes) {
		int alloc = p->alloc_nodes ? 2 * p->alloc_nodes : 16;
		struct node *grown = realloc(p->nodes, alloc * sizeof(*grown));

		if (!grown) {
			strbuf_addstr(p->err, "out of memory");
			return -1;
		}
		p->nodes = grown;
		p->alloc_nodes = alloc;
	}
	n = &p->nodes[p->nr_nodes];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->col = col;
	n->left = n->right = -1;
	return p->nr_nodes++;
}

#define NODE(p, i) (&(p)->nodes[i])

/* *BYTES: the size of a field tep_read_number_field() leaves unread (a char[16]), else 0. */
static bool is_field(struct tep_event *event, const char *name, bool *cpu, int *bytes)
{
	struct tep_format_field *f = tep_find_any_field(event, name);

	*cpu = false;
	*bytes = 0;
	if (f && f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		*bytes = f->size;
	if (f || !strcmp(name, "COMM"))
		return true;
	*cpu = !strcmp(name, "CPU");
	return *cpu;
}

static int new_item_node(struct expr_parser *p)
{
	const char *text = p->tok.text.buf;
	int i;

	if (p->tok.type == TOK_SQUOTE || p->tok.type == TOK_DQUOTE) {
		i = new_node(p, p->tok.type == TOK_DQUOTE ? N_STRING : N_CHAR, p->tok.col);
		if (i >= 0)
			NODE(p, i)->len = p->tok.text.len;
		return i;
	}
	if (isdigit((unsigned char)text[0])) {
		i = new_node(p, N_NUMBER, p->tok.col);
		if (i >= 0)
			NODE(p, i)->value = strtoull(text, NULL, 0);
		return i;
	}
	i = new_node(p, N_UNKNOWN, p->tok.col);
	if (i >= 0 && is_field(p->event, text, &NODE(p, i)->cpu, &NODE(p, i)->bytes))
		NODE(p, i)->kind = N_FIELD;
	else if (i >= 0 && p->unknown)
		p->unknown(p->arg, text, p->tok.col);
	return i;
}

static int new_item(struct expr_parser *p)
{
	int i = new_item_node(p);

	if (i >= 0)
		NODE(p, i)->src_len = p->pos + 1 - p->tok.col;
	return i;
}

static bool is_regex_op(const char *op)
{
	return !strcmp(op, "=~") || !strcmp(op, "!~");
}

/* A string on the right of a comparison: a match, a regular expression, or false. */
static int compare_string(struct expr_parser *p, int cmp, int str, const char *text)
{
	struct node *c = NODE(p, cmp), *left = NODE(p, c->left);
	regex_t re;

	if (left->kind == N_UNKNOWN) {
		c->kind = N_FALSE;
		return 0;
	}
	if (is_regex_op(c->op)) {
		int ret = regcomp(&re, text, REG_ICASE | REG_NOSUB);

		if (ret)
			return fail(p, NODE(p, str)->col, "'%s' is not a regular expression", text);
		regfree(&re);
	} else if (strcmp(c->op, "==") && strcmp(c->op, "!=")) {
		return fail(p, c->col, "strings compare with ==, !=, =~ or !~, not '%s'", c->op);
	}
	if (left->cpu)
		return fail(p, left->col, "CPU is a number: compare it with a number, not a "
			    "string");
	c->kind = N_STRCMP;
	c->cpu = left->cpu;
	return 0;
}

/* libtraceevent's add_right(): ARG becomes the right operand of OP. */
static int add_right(struct expr_parser *p, int op, int arg, const char *text)
{
	struct node *o = NODE(p, op), *a = NODE(p, arg);

	switch (o->kind) {
	case N_LOGIC:
	case N_ARITH:
		if (o->right >= 0)
			break;
		o->right = arg;
		return 0;
	case N_COMPARE:
		if (o->right >= 0)
			break;
		if (a->kind == N_FIELD || a->kind == N_UNKNOWN)
			return fail(p, a->col, "expected a number or a quoted string after '%s', "
				    "not '%s'", o->op, text);
		if (a->kind == N_LOGIC || a->kind == N_ARITH || a->kind == N_COMPARE)
			return fail(p, a->col, "expected a number or a quoted string after '%s'",
				    o->op);
		if (a->kind == N_STRING || (a->kind == N_CHAR && (a->len != 1 ||
								 is_regex_op(o->op))))
			return compare_string(p, op, arg, text);
		if (is_regex_op(o->op))
			return fail(p, a->col, "'%s' takes a quoted regular expression, not a "
				    "number", o->op);
		o->right = arg;
		return 0;
	default:
		break;
	}
	return fail(p, a->col, "expected && or || before '%s'", text);
}

enum op_class { OPC_NONE, OPC_BOOL, OPC_NOT, OPC_ARITH, OPC_COMPARE };

static enum op_class classify_op(const char *t)
{
	static const char *const arith[] = { "+", "-", "*", "/", "%", ">>", "<<", "&", "|",
					     "^", "~" };
	static const char *const cmp[] = { "==", "!=", "<", ">", "<=", ">=", "=~", "!~" };
	size_t i;

	if (!strcmp(t, "&&") || !strcmp(t, "||"))
		return OPC_BOOL;
	if (!strcmp(t, "!"))
		return OPC_NOT;
	for (i = 0; i < sizeof(arith) / sizeof(arith[0]); i++)
		if (!strcmp(t, arith[i]))
			return OPC_ARITH;
	for (i = 0; i < sizeof(cmp) / sizeof(cmp[0]); i++)
		if (!strcmp(t, cmp[i]))
			return OPC_COMPARE;
	return OPC_NONE;
}

static bool op_done(const struct expr_parser *p, int i)
{
	const struct node *n = NODE(p, i);

	switch (n->kind) {
	case N_LOGIC: case N_ARITH: case N_COMPARE:
		return n->right >= 0;
	case N_STRCMP: case N_FALSE:
		return true;
	default:
		return false;
	}
}

static int missing_operand(struct expr_parser *p, int i)
{
	const struct node *n = NODE(p, i);

	return fail(p, n->col, n->kind == N_LOGIC ? "expected a condition after '%s'" :
		    "expected a value after '%s'", n->op);
}

static bool is_string(const struct node *n)
{
	return n->kind == N_STRING || n->kind == N_CHAR;
}

/*
 * libtraceevent takes '~' (not a glob match here, unlike the kernel's filters) and a string
 * in arithmetic, then fails on every record: the filter matches nothing, quietly.
 */
static void note_never(struct expr_parser *p, int i)
{
	struct node *n = NODE(p, i);
	const struct node *l = NODE(p, n->left), *r = NODE(p, n->right);

	if (!p->never || n->noted)
		return;
	n->noted = true;
	if (!strcmp(n->op, "~"))
		strbuf_addf(p->never, "'~' fails on every record, which then does not match "
			    "(column %zu): libtraceevent has no glob match; =~ takes a regular "
			    "expression\n", n->col);
	else if (is_string(l) || is_string(r))
		strbuf_addf(p->never, "'%s' on a string fails on every record, which then does not "
			    "match (column %zu)\n", n->op, n->col);
}

/* libtraceevent compares such a field as a number it never read (uninitialised memory) */
static int not_a_number(struct expr_parser *p, int i)
{
	const struct node *n = NODE(p, i);

	if (i < 0 || n->kind != N_FIELD || !n->bytes)
		return 0;
	return fail(p, n->col, "'%.*s' is not a number (%d bytes): compare it with a quoted "
		    "string", (int)n->src_len, p->s + n->col - 1, n->bytes);
}

/*
 * Every operand present (libtraceevent follows them all when it simplifies the tree, and
 * when it matches a record), and no division by what can be zero.
 */
static int check_tree(struct expr_parser *p, int i)
{
	const struct node *n = NODE(p, i), *r;

	switch (n->kind) {
	case N_LOGIC: case N_ARITH: case N_COMPARE:
		if (n->right < 0)
			return missing_operand(p, i);
		break;
	default:
		return 0;
	}
	r = NODE(p, n->right);
	/*
	 * A compare has a number on the right ('a' is one); arithmetic with a string on the
	 * other side fails before it uses the value.
	 */
	if ((n->kind == N_COMPARE || !is_string(r)) && not_a_number(p, n->left) < 0)
		return PARSE_FAILED;
	if (n->kind == N_ARITH && !is_string(NODE(p, n->left)) && not_a_number(p, n->right) < 0)
		return PARSE_FAILED;
	if (n->kind == N_ARITH)
		note_never(p, i);
	if (n->kind == N_ARITH && (!strcmp(n->op, "/") || !strcmp(n->op, "%")) &&
	    (r->kind == N_FIELD || (r->kind == N_NUMBER && !r->value)))
		return fail(p, n->col, "'%s' by %s: libtraceevent does not check for a zero "
			    "divisor", n->op, r->kind == N_FIELD ? "a field" : "zero");
	if (n->left >= 0 && check_tree(p, n->left) < 0)
		return PARSE_FAILED;
	return check_tree(p, n->right);
}

static int parse_level(struct expr_parser *p, int *out, bool not, int depth);

static int open_paren(struct expr_parser *p, int *op, int *exp, int item, bool not,
		      int depth, int *out)
{
	size_t col = p->tok.col;
	int arg, ret;

	if (item >= 0)
		return fail(p, col, "'(' cannot follow a value");
	if (*exp >= 0)
		return fail(p, col, "'(' cannot follow a condition: join them with && or ||");
	ret = parse_level(p, &arg, false, depth + 1);
	if (ret == PARSE_FAILED)
		return ret;
	if (ret == PARSE_END)
		return fail(p, col, "this '(' is never closed");
	if (not) {
		if (*op >= 0)
			return fail(p, p->last_col, "libtraceevent cannot read this ')'");
		*out = arg;
		return PARSE_END;
	}
	if (*op >= 0)
		return add_right(p, *op, arg, "(") < 0 ? PARSE_FAILED : PARSE_MORE;
	*exp = arg;
	return PARSE_MORE;
}

static int close_paren(struct expr_parser *p, int op, int exp, int item, int *out)
{
	if (op < 0 && exp < 0 && item >= 0)
		return fail(p, NODE(p, item)->col, "expected a comparison after '%.*s'",
			    (int)NODE(p, item)->src_len, p->s + NODE(p, item)->col - 1);
	if (op < 0 && exp < 0)
		return fail(p, p->tok.col, "expected a condition before ')'");
	if (exp >= 0 && !op_done(p, exp))
		return missing_operand(p, exp);
	if (op >= 0 && !op_done(p, op))
		return missing_operand(p, op);
	*out = op >= 0 ? op : exp;
	return PARSE_CLOSED;
}

static int operator(struct expr_parser *p, int *op, int *exp, int item, int depth)
{
	enum op_class cls = classify_op(p->tok.text.buf);
	const char *t = p->tok.text.buf;
	size_t col = p->tok.col;
	int n, arg, ret;

	switch (cls) {
	case OPC_NONE:
		return fail(p, col, "unknown operator '%s'", t);
	case OPC_BOOL:
		if (*exp < 0 && *op < 0)
			return fail(p, col, "expected a condition before '%s'", t);
		/* fall through */
	case OPC_NOT:
		if (item >= 0)
			return fail(p, col, "expected a comparison before '%s'", t);
		break;
	default:
		if (item < 0)
			return fail(p, col, "expected a field before '%s'", t);
		break;
	}
	n = new_node(p, cls == OPC_BOOL || cls == OPC_NOT ? N_LOGIC :
			cls == OPC_ARITH ? N_ARITH : N_COMPARE, col);
	if (n < 0)
		return PARSE_FAILED;
	snprintf(NODE(p, n)->op, sizeof(NODE(p, n)->op), "%s", t);
	if (cls == OPC_BOOL) {
		NODE(p, n)->left = *op >= 0 ? *op : *exp;
		*op = n;
		*exp = -1;
		return PARSE_MORE;
	}
	if (*op >= 0 && add_right(p, *op, n, t) < 0)
		return PARSE_FAILED;
	if (cls == OPC_NOT) {
		*exp = n;
		ret = parse_level(p, &arg, true, depth + 1);
		if (ret == PARSE_CLOSED)
			return fail(p, p->last_col, "libtraceevent cannot read this ')' after '!'");
		if (ret < 0 || add_right(p, n, arg, "!") < 0)
			return PARSE_FAILED;
		return PARSE_MORE;
	}
	if (cls == OPC_COMPARE && NODE(p, item)->kind != N_FIELD &&
	    NODE(p, item)->kind != N_UNKNOWN)
		return fail(p, NODE(p, item)->col, "the left side of '%s' must be a field", t);
	NODE(p, n)->left = item;
	*exp = n;
	return PARSE_MORE;
}

/* A value: the first operand of what follows, or the right one of the last operator. */
static int value(struct expr_parser *p, int op, int *exp, int *item, bool not, int *out)
{
	int arg = new_item(p);

	if (arg < 0)
		return PARSE_FAILED;
	if (*item < 0) {
		*item = arg;
		return PARSE_MORE;
	}
	if (*exp < 0)
		return fail(p, p->tok.col, "expected an operator before '%s'", p->tok.text.buf);
	if (add_right(p, *exp, arg, p->tok.text.buf) < 0)
		return PARSE_FAILED;
	*item = -1;
	if (!not)
		return PARSE_MORE;
	if (op >= 0)
		return fail(p, p->tok.col, "libtraceevent cannot read '!' before '%s' here: "
			    "put the condition in parentheses", NODE(p, op)->op);
	*out = *exp;
	return PARSE_END;
}

/* One level of process_filter(): the whole condition, a '(' group, or the operand of '!'. */
static int parse_level(struct expr_parser *p, int *out, bool not, int depth)
{
	int op = -1, exp = -1, item = -1, ret;

	*out = -1;
	if (depth > MAX_NESTING)
		return fail(p, p->tok.col, "more than %d levels of '(' and '!'", MAX_NESTING);
	for (;;) {
		if (next_token(p) < 0)
			return PARSE_FAILED;
		switch (p->tok.type) {
		case TOK_ITEM: case TOK_SQUOTE: case TOK_DQUOTE:
			ret = value(p, op, &exp, &item, not, out);
			break;
		case TOK_DELIM:
			if (p->tok.text.buf[0] == ',')
				return fail(p, p->tok.col, "',' in the condition");
			if (p->tok.text.buf[0] == ')')
				return close_paren(p, op, exp, item, out);
			ret = open_paren(p, &op, &exp, item, not, depth, out);
			break;
		case TOK_OP:
			ret = operator(p, &op, &exp, item, depth);
			break;
		case TOK_END:
			goto end;
		}
		if (ret != PARSE_MORE)
			return ret;
	}
end:
	if (op < 0 && exp < 0 && item >= 0)
		return fail(p, NODE(p, item)->col, "expected a comparison after '%.*s'",
			    (int)NODE(p, item)->src_len, p->s + NODE(p, item)->col - 1);
	if (op < 0 && exp < 0)
		return fail(p, p->tok.col, "expected a condition");
	*out = op >= 0 ? op : exp;
	return check_tree(p, *out) < 0 ? PARSE_FAILED : PARSE_END;
}

int report_filter_expr_check(const char *full, size_t start, struct tep_event *event,
			     struct strbuf *err,
			     void (*unknown)(void *arg, const char *name, size_t col), void *arg,
			     struct strbuf *never)
{
	struct expr_parser p = {
		.s = full, .pos = start, .end = strlen(full), .event = event, .err = err,
		.unknown = unknown, .arg = arg, .never = never, .tok = { .text = STRBUF_INIT },
	};
	int root, ret = parse_level(&p, &root, false, 0);

	if (ret == PARSE_CLOSED)
		fail(&p, p.last_col, "')' without a '(' before it");
	strbuf_release(&p.tok.text);
	free(p.nodes);
	return ret == PARSE_END ? 0 : -EBADMSG;
}
