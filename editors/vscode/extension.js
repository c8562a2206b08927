// Starts `madang lsp` once a madang file is open: a .madang file, a YAML file whose content is
// madang's (a card or deck file naming its ruleset, a ruleset.yaml; detect.js), or any YAML
// file of a folder marked with madang.toml or holding a ruleset.yaml. The server says nothing
// about YAML files that are not madang's. Card and deck files also get their JSON Schemas
// through the YAML extension (redhat.vscode-yaml), as docs/editors.md explains.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");
const { isMadangDocument, MARKERS } = require("./detect");

let client;
let starting;

function start(context) {
  if (starting) return starting;
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
  starting = client.start();
  return starting;
}

async function markedFolder() {
  for (const marker of MARKERS) {
    const found = await vscode.workspace.findFiles(`**/${marker}`, "**/node_modules/**", 1);
    if (found.length) return true;
  }
  return false;
}

async function activate(context) {
  const ours = (doc) => isMadangDocument(doc.languageId, doc.fileName, doc.getText());
  if (vscode.workspace.textDocuments.some(ours) || (await markedFolder())) {
    return start(context);
  }
  // activated by a YAML file that is not madang's: wait for one that is
  const watch = vscode.workspace.onDidOpenTextDocument((doc) => {
    if (ours(doc)) {
      watch.dispose();
      start(context);
    }
  });
  context.subscriptions.push(watch);
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
