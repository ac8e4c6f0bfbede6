/**
 * The transcript page's stylesheet: Discord's dark theme, close enough that the page reads like the channel. Emoji are
 * drawn with the bundled Noto Emoji (transcript-font.ts), named last so that text keeps its own font.
 */
export const TRANSCRIPT_CSS = `
:root { color-scheme: dark; }
* { box-sizing: border-box; }
body { margin: 0; background: #313338; color: #dbdee1; font: 16px/1.375 "gg sans", "Noto Sans", "Helvetica Neue", Helvetica, Arial, sans-serif, "Noto Emoji"; }
.emoji, .eye, .file-icon { font-family: "Noto Emoji", sans-serif; }
header.page { padding: 16px 24px; border-bottom: 1px solid #1f2023; background: #2b2d31; }
header.page h1 { margin: 0; font-size: 20px; color: #f2f3f5; }
header.page p { margin: 4px 0 0; font-size: 14px; color: #949ba4; }
section.channel { padding: 8px 0 24px; }
section.channel > h2 { margin: 0 0 8px; padding: 12px 24px; font-size: 16px; color: #f2f3f5; border-bottom: 1px solid #26272b; }
section.channel > h2 .hash { color: #80848e; margin-right: 6px; }
.message { padding: 4px 24px 4px 16px; margin-top: 12px; }
.message:hover { background: #2e3035; }
.message.ephemeral { background: rgba(88, 101, 242, 0.08); border-left: 2px solid #5865f2; }
.message-row { display: flex; gap: 16px; }
.avatar { flex: none; border-radius: 50%; display: flex; align-items: center; justify-content: center; color: #fff; font-weight: 600; }
.avatar::before { content: attr(data-initial); }
.avatar.full { width: 40px; height: 40px; font-size: 18px; }
.avatar.mini { width: 16px; height: 16px; font-size: 10px; margin-right: 4px; }
.message-body { min-width: 0; flex: 1; }
.message-header .author { font-weight: 500; color: #f2f3f5; }
.app-tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600; padding: 1px 4px; border-radius: 3px; margin-left: 2px; vertical-align: 2px; }
.sent { color: #949ba4; font-size: 12px; margin-left: 4px; }
.interaction-line { display: flex; align-items: center; font-size: 14px; color: #b5bac1; margin: 0 0 4px 36px; }
.interaction-line .author { color: #f2f3f5; margin-right: 4px; }
.interaction-line .command { color: #00a8fc; margin-left: 4px; }
.interaction-line .form { color: #dbdee1; margin-left: 4px; }
.reply-spine { width: 30px; height: 10px; margin: 6px 4px 0 -16px; border-left: 2px solid #4e5058; border-top: 2px solid #4e5058; border-top-left-radius: 6px; align-self: flex-start; }
.content, .text-display { white-space: pre-wrap; word-wrap: break-word; }
.blank { height: 1.375em; }
.subtext { font-size: 13px; color: #949ba4; }
.h1 { font-size: 24px; font-weight: 700; margin: 8px 0 4px; }
.h2 { font-size: 20px; font-weight: 700; margin: 8px 0 4px; }
.h3 { font-size: 16px; font-weight: 700; margin: 8px 0 4px; }
blockquote { margin: 0; padding-left: 12px; border-left: 4px solid #4e5058; }
.li::before { content: "• "; }
code { background: #2b2d31; border: 1px solid #1e1f22; border-radius: 4px; padding: 0 3px; font: 0.875em Consolas, "Andale Mono", monospace, "Noto Emoji"; }
pre.codeblock { background: #2b2d31; border: 1px solid #1e1f22; border-radius: 4px; padding: 8px; white-space: pre-wrap; margin: 4px 0; }
pre.codeblock code { border: 0; padding: 0; background: none; }
.mention { background: rgba(88, 101, 242, 0.3); color: #c9cdfb; border-radius: 3px; padding: 0 2px; font-weight: 500; }
.timestamp { background: rgba(255, 255, 255, 0.06); border-radius: 3px; padding: 0 2px; }
.spoiler { background: #1e1f22; color: transparent; border-radius: 3px; }
.spoiler:hover { color: inherit; }
a { color: #00a8fc; text-decoration: none; }
.attachments, .media-gallery { display: grid; gap: 4px; margin-top: 8px; max-width: 520px; grid-template-columns: repeat(2, 1fr); }
.media-gallery.count-1, .attachments:has(> :only-child) { grid-template-columns: 1fr; }
.attachment-image, .gallery-image, .embed-image { display: block; width: 100%; height: auto; border-radius: 8px; background: #2b2d31; }
.gallery-image.spoiler { filter: blur(24px); }
.missing { padding: 24px; border: 1px dashed #ed4245; border-radius: 8px; color: #ed4245; font-size: 14px; }
.file { display: flex; align-items: center; gap: 8px; max-width: 432px; padding: 12px; background: #2b2d31; border: 1px solid #1e1f22; border-radius: 8px; margin-top: 8px; }
.file-size { color: #949ba4; font-size: 12px; margin-left: auto; }
.action-row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.button { display: inline-flex; align-items: center; gap: 6px; height: 32px; padding: 2px 16px; border: 0; border-radius: 8px; color: #fff; font: 500 14px/16px inherit; font-family: inherit; cursor: pointer; }
.button.primary { background: #5865f2; }
.button.secondary, .button.link { background: #4e5058; }
.button.success { background: #248046; }
.button.danger { background: #da373c; }
.button.premium { background: #eb459e; }
.button.disabled { opacity: 0.5; cursor: not-allowed; }
.select { width: 100%; max-width: 400px; background: #1e1f22; border: 1px solid #1e1f22; border-radius: 8px; font-size: 14px; }
.select summary { list-style: none; padding: 8px 12px; color: #949ba4; display: flex; justify-content: space-between; cursor: pointer; }
.select ul { list-style: none; margin: 0; padding: 4px 0; border-top: 1px solid #2b2d31; }
.select li { padding: 6px 12px; }
.select li.default { color: #f2f3f5; font-weight: 600; }
.option-description { display: block; color: #949ba4; font-size: 12px; }
.select.disabled { opacity: 0.5; }
.container { margin-top: 8px; max-width: 600px; padding: 16px; background: #2b2d31; border: 1px solid #1e1f22; border-radius: 8px; }
.container.accented { border-left: 4px solid; }
.container > * + * { margin-top: 8px; }
.section { display: flex; gap: 16px; align-items: flex-start; }
.section-text { flex: 1; min-width: 0; }
.section-accessory { flex: none; }
.thumbnail { display: block; width: 85px; height: 85px; object-fit: cover; border-radius: 8px; }
.separator.small { margin: 8px 0; }
.separator.large { margin: 16px 0; }
.separator.divider { border-top: 1px solid #3f4147; }
.unknown-component { color: #949ba4; font-style: italic; }
.embed { display: flex; gap: 16px; max-width: 520px; margin-top: 8px; padding: 8px 16px 16px 12px; background: #2b2d31; border-left: 4px solid #1e1f22; border-radius: 4px; }
.embed-main { flex: 1; min-width: 0; }
.embed-author { font-size: 14px; font-weight: 600; margin-top: 8px; }
.embed-title { font-weight: 600; margin-top: 8px; color: #f2f3f5; }
.embed-description { font-size: 14px; margin-top: 8px; white-space: pre-wrap; }
.embed-fields { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8px; margin-top: 8px; font-size: 14px; }
.embed-field { grid-column: 1 / -1; }
.embed-field.inline { grid-column: auto; }
.embed-field-name { font-weight: 600; }
.embed-image { margin-top: 16px; }
.embed-thumbnail { width: 80px; height: 80px; object-fit: cover; border-radius: 4px; margin-top: 8px; }
.embed-footer { font-size: 12px; color: #949ba4; margin-top: 8px; }
.loading { color: #949ba4; font-style: italic; }
.ephemeral-note { font-size: 12px; color: #949ba4; margin-top: 4px; }
.ephemeral-note .dismiss { color: #00a8fc; }
`;
