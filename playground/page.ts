/**
 * The playground's page: the transcript's Discord look (demo/transcript-style.ts, the bundled emoji font) around a
 * channel that fills as the bot answers, a bar to run commands with, the member, role, language and channel to act as,
 * and a dialog for the bot's modals. Its script (public/app.js) builds the controls from /api/setup.
 */
import { emojiFontFaces, emojiFontSubsets } from '../demo/transcript-font.js';
import { TRANSCRIPT_CSS } from '../demo/transcript-style.js';

const PLAYGROUND_CSS = `
body { display: flex; flex-direction: column; height: 100vh; overflow: hidden; }
header.page { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; padding: 10px 16px; }
header.page h1 { font-size: 17px; }
#roles { display: flex; gap: 8px; }
#roles label { gap: 3px; }
header.page h1 { margin-right: auto; }
header.page label { font-size: 13px; color: #b5bac1; display: flex; gap: 6px; align-items: center; }
select, input, textarea { background: #1e1f22; color: #dbdee1; border: 1px solid #1e1f22; border-radius: 6px; padding: 6px 8px; font: inherit; font-size: 14px; }
#channel-name { padding: 10px 24px; font-weight: 600; color: #f2f3f5; border-bottom: 1px solid #26272b; }
#channel-name .hash { color: #80848e; margin-right: 6px; }
#messages { flex: 1; overflow-y: auto; padding-bottom: 16px; }
#messages .slot[hidden] { display: none; }
#messages .empty { color: #949ba4; padding: 24px; }
#messages .media-gallery { max-width: 380px; }
.slot { position: relative; }
.slot .apps { position: absolute; right: 24px; top: 8px; display: none; gap: 4px; }
.slot:hover .apps { display: flex; }
.apps button { background: #2b2d31; color: #dbdee1; border: 1px solid #1e1f22; border-radius: 4px; font-size: 12px; padding: 2px 8px; cursor: pointer; }
.button:not(.disabled):hover { filter: brightness(1.15); }
.select li[data-value] { cursor: pointer; }
.select li[data-value]:hover { background: #35373c; }
form#command-bar { margin: 0 16px 16px; padding: 10px 12px; background: #383a40; border-radius: 8px; display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-end; }
#options { display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-end; }
#more { flex-basis: 100%; font-size: 13px; color: #b5bac1; }
#more summary { cursor: pointer; }
#more .fields { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; max-height: 30vh; overflow-y: auto; }
form#command-bar .slash { color: #949ba4; font-size: 20px; align-self: center; }
.field { display: flex; flex-direction: column; gap: 2px; font-size: 12px; color: #b5bac1; }
.field .required { color: #f23f43; }
.field input[type=text] { width: 220px; }
#options .field input[type=text] { width: min(520px, 60vw); }
.field input[type=number] { width: 90px; }
button.send { background: #5865f2; color: #fff; border: 0; border-radius: 6px; padding: 8px 16px; font: inherit; font-size: 14px; cursor: pointer; }
#notices { position: fixed; right: 16px; top: 64px; display: flex; flex-direction: column; gap: 8px; max-width: 420px; }
.notice { background: #f23f43; color: #fff; border-radius: 6px; padding: 8px 12px; font-size: 14px; }
dialog { background: #313338; color: #dbdee1; border: 0; border-radius: 8px; padding: 0; width: min(480px, 92vw); }
dialog::backdrop { background: rgba(0, 0, 0, 0.7); }
dialog h2 { margin: 0; padding: 16px; font-size: 20px; color: #f2f3f5; }
dialog .modal-body { padding: 0 16px 16px; display: flex; flex-direction: column; gap: 12px; }
dialog .modal-body label { display: flex; flex-direction: column; gap: 4px; font-size: 12px; font-weight: 700; text-transform: uppercase; color: #b5bac1; }
dialog .modal-body .description { font-weight: 400; text-transform: none; color: #949ba4; }
dialog textarea { min-height: 80px; resize: vertical; }
dialog footer { display: flex; justify-content: flex-end; gap: 8px; padding: 16px; background: #2b2d31; border-radius: 0 0 8px 8px; }
dialog footer button { border: 0; border-radius: 4px; padding: 8px 16px; font: inherit; font-size: 14px; cursor: pointer; color: #fff; background: transparent; }
dialog footer button.submit { background: #5865f2; }
`;

/** The page: no data of its own; the script fetches the setup and subscribes to the channel. */
export function playgroundPage(): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>imagine-bot playground</title>',
    // No icon: the browser would ask for /favicon.ico.
    '<link rel="icon" href="data:,">',
    `<style>${emojiFontFaces(emojiFontSubsets(), '/fonts')}${TRANSCRIPT_CSS}${PLAYGROUND_CSS}</style>`,
    '</head>',
    '<body>',
    '<header class="page"><h1>imagine-bot playground</h1>',
    '<label>Channel <select id="channel"></select></label>',
    '<label>Member <select id="member"></select></label>',
    '<label>Roles <span id="roles"></span></label>',
    '<label>Language <select id="locale"></select></label>',
    '</header>',
    '<div id="channel-name"><span class="hash">#</span><span id="channel-title"></span></div>',
    '<main id="messages"><p class="empty">Run a command below: /imagine draws an image.</p></main>',
    '<form id="command-bar" autocomplete="off"><span class="slash">/</span><select id="command" aria-label="Command"></select>',
    '<span id="options"></span><button type="submit" class="send">Send</button>',
    '<details id="more"><summary></summary><div class="fields"></div></details></form>',
    '<div id="notices" aria-live="polite"></div>',
    '<dialog id="modal"><form method="dialog"><h2 id="modal-title"></h2><div class="modal-body"></div>',
    '<footer><button type="button" class="cancel">Cancel</button><button type="submit" class="submit">Submit</button></footer></form></dialog>',
    '<script type="module" src="/app.js"></script>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
