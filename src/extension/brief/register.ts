// Wires the critic-brief feature into the extension: its two commands, the panel serializer that
// restores panels after a reload, and the read-only documents the diff editor shows.
import * as vscode from 'vscode';
import type { CommandManager } from '../commandManager';
import type { PrompterSlot } from '../input';
import { AssembleBriefCommand } from './assembleBrief';
import { BRIEF_VIEW_TYPE, type PanelServices } from './briefPanel';
import { BriefPanels } from './briefPanels';
import { ExportPacketCommand } from './exportCommand';
import { registerGitRevisionDocuments } from './gitRevisionDocuments';

export function registerBriefPanel(
  context: vscode.ExtensionContext,
  commands: CommandManager,
  prompter: PrompterSlot,
  output: vscode.OutputChannel,
  gates: Pick<PanelServices, 'isTrusted' | 'storeWrites'>,
): BriefPanels {
  const { isTrusted } = gates;
  const panels = new BriefPanels({ extensionUri: context.extensionUri, output, ...gates });
  context.subscriptions.push(
    panels,
    vscode.window.registerWebviewPanelSerializer(BRIEF_VIEW_TYPE, panels),
    registerGitRevisionDocuments(isTrusted),
  );
  commands.register(new AssembleBriefCommand(prompter, panels));
  commands.register(new ExportPacketCommand(panels));
  return panels;
}
