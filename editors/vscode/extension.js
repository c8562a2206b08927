// Starts `madang lsp` for .madang files and for YAML files (card, deck and ruleset files; the
// server says nothing about YAML files that are not madang's). Card and deck files also get
// their JSON Schemas through the YAML extension (redhat.vscode-yaml), as docs/editors.md explains.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace
    .getConfiguration("madang")
    .get("server.command", ["madang", "lsp"]);
  client = new LanguageClient(
    "madang",
    "madang",
    { command, args },
    {
      documentSelector: [
        { scheme: "file", language: "madang" },
        { scheme: "file", language: "yaml" },
      ],
    }
  );
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
