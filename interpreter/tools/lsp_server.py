"""The pygls side of `madang lsp`: protocol messages in, `lsp.Workspace` questions, answers out.

pygls is an optional extra (`pip install 'madang[lsp]'`); only this module imports it.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..language.diagnostics import ERROR, Diagnostic, Span
from . import lsp

SYMBOL_KINDS = {
    "kind": t.SymbolKind.Class,
    "field": t.SymbolKind.Field,
    "zone": t.SymbolKind.Namespace,
    "counter": t.SymbolKind.Variable,
    "event": t.SymbolKind.Event,
    "verb": t.SymbolKind.Function,
    "definition": t.SymbolKind.Function,
    "keyword": t.SymbolKind.Interface,
    "action": t.SymbolKind.Method,
    "card": t.SymbolKind.Object,
}
COMPLETION_KINDS = {
    "core keyword": t.CompletionItemKind.Keyword,
    "kind": t.CompletionItemKind.Class,
    "field": t.CompletionItemKind.Field,
    "zone": t.CompletionItemKind.Module,
    "counter": t.CompletionItemKind.Variable,
    "event": t.CompletionItemKind.Event,
    "verb": t.CompletionItemKind.Function,
    "definition": t.CompletionItemKind.Function,
    "keyword": t.CompletionItemKind.Keyword,
    "action": t.CompletionItemKind.Method,
    "card": t.CompletionItemKind.Constant,
    "option": t.CompletionItemKind.Property,
}


def span_range(span: Span) -> t.Range:
    """LSP positions count from 0; a span's end column is exclusive, as LSP's is."""
    line, col = max(span.line - 1, 0), max(span.col - 1, 0)
    end_line = max((span.end_line or span.line) - 1, line)
    end_col = span.end_col - 1 if span.end_col else col + 1
    if end_line == line and end_col <= col:
        end_col = col + 1
    return t.Range(t.Position(line, col), t.Position(end_line, end_col))


def lsp_diagnostic(d: Diagnostic) -> t.Diagnostic:
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    severity = t.DiagnosticSeverity.Error if d.severity == ERROR else t.DiagnosticSeverity.Warning
    return t.Diagnostic(span_range(d.span), message, severity, d.code or None, source="madang")


class MadangServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("madang", __version__)
        self.model = lsp.Workspace()
        self.analyses: dict[Path, lsp.Analysis] = {}
        self.published: dict[Path, set[str]] = {}  # document -> URIs it published diagnostics to

    def path_of(self, uri: str) -> Path:
        return Path(to_fs_path(uri) or uri).resolve()

    def analysis(self, uri: str) -> lsp.Analysis:
        path = self.path_of(uri)
        if path not in self.analyses:
            self.analyses[path] = self.model.analyse(path)
        return self.analyses[path]

    def refresh(self, uri: str) -> None:
        """Check the document's context again and publish what it finds, per file."""
        path = self.path_of(uri)
        self.analyses = {}
        found = self.analysis(uri)
        by_uri: dict[str, list[t.Diagnostic]] = {from_fs_path(str(path)): []}
        for d in found.diagnostics:
            where = lsp.resolve(d.span.file) if d.span.file else path
            by_uri.setdefault(from_fs_path(str(where)), []).append(lsp_diagnostic(d))
        for stale in self.published.get(path, set()) - set(by_uri):
            by_uri[stale] = []
        self.published[path] = {u for u, ds in by_uri.items() if ds}
        for target, diagnostics in by_uri.items():
            self.text_document_publish_diagnostics(
                t.PublishDiagnosticsParams(uri=target, diagnostics=diagnostics)
            )


def build_server() -> MadangServer:
    server = MadangServer()

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: MadangServer, params: t.DidOpenTextDocumentParams) -> None:
        ls.model.open(ls.path_of(params.text_document.uri), params.text_document.text)
        ls.refresh(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: MadangServer, params: t.DidChangeTextDocumentParams) -> None:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        ls.model.open(ls.path_of(doc.uri), doc.source)
        ls.refresh(doc.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: MadangServer, params: t.DidSaveTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: MadangServer, params: t.DidCloseTextDocumentParams) -> None:
        ls.model.close(ls.path_of(params.text_document.uri))
        ls.analyses = {}

    def word(ls: MadangServer, uri: str, pos: t.Position):
        text = ls.model.text(ls.path_of(uri))
        return lsp.word_at(text, pos.line, pos.character)

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    def hover(ls: MadangServer, params: t.HoverParams) -> t.Hover | None:
        found = word(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        text = lsp.hover_text(ls.model, ls.analysis(params.text_document.uri), found[0])
        if text is None:
            return None
        line = params.position.line
        rng = t.Range(t.Position(line, found[1]), t.Position(line, found[2]))
        return t.Hover(t.MarkupContent(t.MarkupKind.Markdown, text), rng)

    @server.feature(t.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: MadangServer, params: t.DefinitionParams) -> t.Location | None:
        found = word(ls, params.text_document.uri, params.position)
        sym = ls.analysis(params.text_document.uri).symbols.get(found[0]) if found else None
        if sym is None or sym.span is None:
            return None
        return t.Location(from_fs_path(str(lsp.resolve(sym.span.file))), span_range(sym.span))

    @server.feature(t.TEXT_DOCUMENT_REFERENCES)
    def references(ls: MadangServer, params: t.ReferenceParams) -> list[t.Location]:
        found = word(ls, params.text_document.uri, params.position)
        if found is None:
            return []
        places = lsp.references(ls.model, ls.analysis(params.text_document.uri), found[0])
        return [
            t.Location(from_fs_path(str(p)), t.Range(t.Position(i, a), t.Position(i, b)))
            for p, i, a, b in places
        ]

    @server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=["."]))
    def completion(ls: MadangServer, params: t.CompletionParams) -> t.CompletionList:
        path = ls.path_of(params.text_document.uri)
        pos = params.position
        context = lsp.completion_context(path, ls.model.text(path), pos.line, pos.character)
        found = lsp.completions(ls.analysis(params.text_document.uri), context)
        items = [
            t.CompletionItem(label=text, kind=COMPLETION_KINDS.get(what), detail=detail or what)
            for text, what, detail in found
        ]
        return t.CompletionList(is_incomplete=False, items=items)

    @server.feature(
        t.TEXT_DOCUMENT_CODE_ACTION,
        t.CodeActionOptions(code_action_kinds=[t.CodeActionKind.QuickFix]),
    )
    def code_action(ls: MadangServer, params: t.CodeActionParams) -> list[t.CodeAction]:
        """A quick fix for every diagnostic whose hint says "did you mean 'X'?"."""
        out = []
        for d in params.context.diagnostics:
            new = lsp.quick_fix(d.message)
            if new is None:
                continue
            edit = t.WorkspaceEdit(changes={params.text_document.uri: [t.TextEdit(d.range, new)]})
            out.append(t.CodeAction(f"Change to '{new}'", kind=t.CodeActionKind.QuickFix,
                                    diagnostics=[d], edit=edit, is_preferred=True))  # fmt: skip
        return out

    @server.feature(t.TEXT_DOCUMENT_PREPARE_RENAME)
    def prepare_rename(ls: MadangServer, params: t.PrepareRenameParams) -> t.Range | None:
        found = word(ls, params.text_document.uri, params.position)
        if found is None or found[0] not in ls.analysis(params.text_document.uri).symbols:
            return None
        line = params.position.line
        return t.Range(t.Position(line, found[1]), t.Position(line, found[2]))

    @server.feature(t.TEXT_DOCUMENT_RENAME)
    def rename(ls: MadangServer, params: t.RenameParams) -> t.WorkspaceEdit | None:
        """A declaration (verb, definition, keyword, card, ...) renamed in every file that
        names it: the ruleset's files, card files and the decks beside them."""
        found = word(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        path = ls.path_of(params.text_document.uri)
        analysis = ls.analysis(params.text_document.uri)
        places = lsp.rename_edits(ls.model, analysis, path, found[0], params.new_name)
        if not places:
            return None
        return t.WorkspaceEdit(
            changes={
                from_fs_path(str(p)): [
                    t.TextEdit(t.Range(t.Position(i, a), t.Position(i, b)), params.new_name)
                    for i, a, b in spots
                ]
                for p, spots in places.items()
            }
        )

    @server.feature(
        t.TEXT_DOCUMENT_SIGNATURE_HELP,
        t.SignatureHelpOptions(trigger_characters=["(", ","]),
    )
    def signature_help(ls: MadangServer, params: t.SignatureHelpParams) -> t.SignatureHelp | None:
        path = ls.path_of(params.text_document.uri)
        pos = params.position
        sig = lsp.signature(ls.analysis(params.text_document.uri), ls.model.text(path),
                            pos.line, pos.character)  # fmt: skip
        if sig is None:
            return None
        label, params_, doc, active = sig
        info = t.SignatureInformation(
            label=label,
            documentation=doc,
            parameters=[t.ParameterInformation(label=p) for p in params_],
        )
        return t.SignatureHelp(signatures=[info], active_signature=0, active_parameter=active)

    @server.feature(t.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: MadangServer, params: t.DocumentFormattingParams) -> list[t.TextEdit]:
        path = ls.path_of(params.text_document.uri)
        text = ls.model.text(path)
        new = lsp.formatted(path, text)
        if new is None or new == text:
            return []
        end = t.Position(len(text.splitlines()) + 1, 0)
        return [t.TextEdit(t.Range(t.Position(0, 0), end), new)]

    @server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: MadangServer, params: t.DocumentSymbolParams) -> list[t.DocumentSymbol]:
        path = ls.path_of(params.text_document.uri)
        out = []
        for sym in lsp.outline(ls.analysis(params.text_document.uri), path):
            rng = span_range(sym.span)
            out.append(
                t.DocumentSymbol(
                    name=sym.name,
                    kind=SYMBOL_KINDS.get(sym.label, t.SymbolKind.Variable),
                    range=rng,
                    selection_range=t.Range(rng.start, rng.start),
                    detail=sym.label,
                )
            )
        return out

    legend = t.SemanticTokensLegend(token_types=lsp.TOKEN_TYPES, token_modifiers=[])

    @server.feature(t.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, legend)
    def tokens(ls: MadangServer, params: t.SemanticTokensParams) -> t.SemanticTokens:
        path = ls.path_of(params.text_document.uri)
        if path.suffix != ".madang":
            return t.SemanticTokens(data=[])
        analysis = ls.analysis(params.text_document.uri)
        return t.SemanticTokens(data=lsp.semantic_tokens(ls.model.text(path), analysis))

    return server


def serve() -> int:
    """Run the server on standard input and output until the client exits."""
    build_server().start_io()
    return 0
