// The VS Code client of the wishdsl language server: it starts `wishdsl lsp` (the setting
// wishdsl.server.command) for .wish files and speaks LSP to it over standard input and output.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate() {
  const [command, ...args] = vscode.workspace.getConfiguration("wishdsl").get("server.command", ["wishdsl", "lsp"]);
  const serverOptions = { command, args, transport: TransportKind.stdio };
  const clientOptions = { documentSelector: [{ scheme: "file", language: "wish" }] };
  client = new LanguageClient("wishdsl", "wishdsl language server", serverOptions, clientOptions);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
