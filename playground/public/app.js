// The playground page's script: builds the controls from /api/setup, keeps the channel in step with /api/events
// (each message arrives rendered by the transcript's renderer), and sends what the person does to the /api routes.
// Plain browser JavaScript, served as it is.

const $ = (selector) => document.querySelector(selector);
const setup = await (await fetch('/api/setup')).json();
const slots = new Map();
const state = { channelId: setup.channels[0].id, userId: setup.defaultUserId, roles: undefined, locale: 'en-US' };

// --- who acts, where ---------------------------------------------------------------------------------------------

function option(value, label, selected = false) {
  const element = document.createElement('option');
  element.value = value;
  element.textContent = label;
  element.selected = selected;
  return element;
}

for (const channel of setup.channels) $('#channel').append(option(channel.id, `#${channel.name}`));
for (const user of setup.users) $('#member').append(option(user.id, user.name, user.id === state.userId));
for (const locale of setup.locales) $('#locale').append(option(locale, locale));
for (const role of setup.roles) {
  const label = document.createElement('label');
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.value = role.name;
  box.className = 'role';
  label.append(box, role.label);
  $('#roles').append(label);
}

function showRolesOf(userId) {
  const user = setup.users.find((u) => u.id === userId);
  for (const box of document.querySelectorAll('input.role')) box.checked = user.roles.includes(box.value);
  state.roles = undefined;
}
showRolesOf(state.userId);

$('#member').addEventListener('change', (event) => {
  state.userId = event.target.value;
  showRolesOf(state.userId);
});
$('#roles').addEventListener('change', () => {
  state.roles = [...document.querySelectorAll('input.role:checked')].map((box) => box.value);
});
$('#locale').addEventListener('change', (event) => (state.locale = event.target.value));
$('#channel').addEventListener('change', (event) => {
  state.channelId = event.target.value;
  showChannel();
});

function actor() {
  return { userId: state.userId, locale: state.locale, channelId: state.channelId, ...(state.roles ? { roles: state.roles } : {}) };
}

function showChannel() {
  $('#channel-title').textContent = setup.channels.find((c) => c.id === state.channelId).name;
  for (const slot of slots.values()) slot.hidden = slot.dataset.channelId !== state.channelId;
}
showChannel();

// --- the command bar ---------------------------------------------------------------------------------------------

const SUB_COMMAND = 1;
const SUB_COMMAND_GROUP = 2;
const slashCommands = setup.commands.filter((c) => c.type === 1);
const messageCommands = setup.commands.filter((c) => c.type === 3);

// One entry per runnable path: `imagine`, `quota show`, `settings model set`…
const entries = [];
for (const command of slashCommands) {
  const subs = (command.options ?? []).filter((o) => o.type === SUB_COMMAND || o.type === SUB_COMMAND_GROUP);
  if (subs.length === 0) entries.push({ path: [command.name], command, options: command.options ?? [] });
  for (const sub of subs) {
    if (sub.type === SUB_COMMAND) entries.push({ path: [command.name, sub.name], command, options: sub.options ?? [] });
    else for (const leaf of sub.options ?? []) entries.push({ path: [command.name, sub.name, leaf.name], command, options: leaf.options ?? [] });
  }
}
entries.forEach((entry, index) => $('#command').append(option(String(index), entry.path.join(' '), entry.path[0] === 'imagine' && entry.path.length === 1)));

function described(item) {
  return item.description_localizations?.[state.locale] ?? item.description ?? '';
}

function field(spec) {
  const wrapper = document.createElement('label');
  wrapper.className = 'field';
  wrapper.title = described(spec);
  const caption = document.createElement('span');
  caption.textContent = spec.name;
  if (spec.required) {
    const star = document.createElement('span');
    star.className = 'required';
    star.textContent = ' *';
    caption.append(star);
  }
  wrapper.append(caption);
  let input;
  const choices = spec.choices ?? [];
  const pick = (items) => {
    const select = document.createElement('select');
    select.append(option('', '—'));
    for (const [value, label] of items) select.append(option(value, label));
    return select;
  };
  if (choices.length > 0) input = pick(choices.map((c) => [String(c.value), c.name_localizations?.[state.locale] ?? c.name]));
  else if (spec.type === 5)
    input = pick([
      ['true', 'true'],
      ['false', 'false'],
    ]);
  else if (spec.type === 6) input = pick(setup.users.map((u) => [u.id, u.name]));
  else if (spec.type === 7) input = pick(setup.channels.map((c) => [c.id, `#${c.name}`]));
  else if (spec.type === 8) input = pick(setup.roles.map((r) => [r.id, r.label]));
  else if (spec.type === 11) {
    input = document.createElement('input');
    input.type = 'file';
  } else {
    input = document.createElement('input');
    input.type = spec.type === 4 || spec.type === 10 ? 'number' : 'text';
    if (spec.type === 10) input.step = 'any';
    input.placeholder = described(spec);
    if (spec.autocomplete) {
      const list = document.createElement('datalist');
      list.id = `suggestions-${spec.name}`;
      input.setAttribute('list', list.id);
      input.addEventListener('focus', () => void suggest(input));
      input.addEventListener('input', () => void suggest(input));
      wrapper.append(list);
    }
  }
  input.name = spec.name;
  input.dataset.type = String(spec.type);
  wrapper.append(input);
  return wrapper;
}

// Required options in the bar, the others behind "More options", as Discord lists them after the required ones.
function showOptions() {
  const entry = entries[Number($('#command').value)];
  const options = entry?.options ?? [];
  $('#options').replaceChildren(...options.filter((o) => o.required).map(field));
  const optional = options.filter((o) => !o.required);
  $('#more').hidden = optional.length === 0;
  $('#more summary').textContent = `More options (${optional.length})`;
  $('#more .fields').replaceChildren(...optional.map(field));
}
$('#command').addEventListener('change', showOptions);
showOptions();

async function readFile(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { filename: file.name, contentType: file.type, data: btoa(binary) };
}

// The bar's values as the command's options; `focused` names the field an autocomplete asks for (files left out).
async function collect(entry, focused) {
  const options = [];
  const uploads = [];
  for (const input of $('#command-bar').querySelectorAll('#options [name], #more [name]')) {
    const type = Number(input.dataset.type);
    if (type === 11) {
      if (focused !== undefined || input.files.length === 0) continue;
      uploads.push(await readFile(input.files[0]));
      options.push({ name: input.name, type, value: String(uploads.length - 1) });
      continue;
    }
    if (input.name === focused) {
      options.push({ name: input.name, type, value: input.value, focused: true });
      continue;
    }
    if (input.value === '') continue;
    let value = input.value;
    if (type === 4 || type === 10) value = Number(value);
    if (type === 5) value = value === 'true';
    options.push({ name: input.name, type, value });
  }
  // Subcommands wrap their options: `quota show` sends [{ name: 'show', type: 1, options }].
  let nested = options;
  for (let depth = entry.path.length - 1; depth >= 1; depth--)
    nested = [{ name: entry.path[depth], type: depth === entry.path.length - 1 ? SUB_COMMAND : SUB_COMMAND_GROUP, options: nested }];
  return { name: entry.path[0], options: nested, uploads };
}

$('#command-bar').addEventListener('submit', async (event) => {
  event.preventDefault();
  const entry = entries[Number($('#command').value)];
  const sent = await api('/api/command', { ...(await collect(entry)), actor: actor() });
  if (sent) for (const input of $('#command-bar').querySelectorAll('input[type=text], input[type=file]')) input.value = '';
});

// An autocomplete option asks the bot for its choices as the person types (the model list, for instance).
async function suggest(input) {
  const entry = entries[Number($('#command').value)];
  const { name, options } = await collect(entry, input.name);
  const response = await fetch('/api/autocomplete', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, options, actor: actor() }),
  });
  if (!response.ok) return;
  const { choices } = await response.json();
  const list = document.getElementById(input.getAttribute('list'));
  list.replaceChildren(...choices.map((choice) => option(String(choice.value), choice.name)));
}

// --- buttons, selects and app commands on messages ------------------------------------------------------------------

$('#messages').addEventListener('click', (event) => {
  const slot = event.target.closest('.slot');
  if (!slot) return;
  const button = event.target.closest('button.button[data-custom-id]');
  if (button && !button.disabled) {
    void api('/api/component', { messageId: slot.dataset.id, customId: button.dataset.customId, actor: actor() });
    return;
  }
  const choice = event.target.closest('.select[data-custom-id] li[data-value]');
  if (choice) {
    const select = choice.closest('.select');
    select.open = false;
    void api('/api/component', { messageId: slot.dataset.id, customId: select.dataset.customId, values: [choice.dataset.value], actor: actor() });
    return;
  }
  const app = event.target.closest('.apps button');
  if (app) void api('/api/message-command', { name: app.dataset.name, messageId: slot.dataset.id, actor: actor() });
});

// --- the live channel ----------------------------------------------------------------------------------------------

function place(id, channelId, html) {
  let slot = slots.get(id);
  if (!slot) {
    slot = document.createElement('div');
    slot.className = 'slot';
    slot.dataset.id = id;
    slot.dataset.channelId = channelId;
    slots.set(id, slot);
    const later = [...slots.values()].find((other) => other !== slot && BigInt(other.dataset.id) > BigInt(id));
    $('#messages').insertBefore(slot, later ?? null);
    $('.empty')?.remove();
  }
  slot.hidden = channelId !== state.channelId;
  const apps = messageCommands.map((c) => `<button type="button" data-name="${c.name.replace(/"/g, '&quot;')}">${c.name.replace(/</g, '&lt;')}</button>`);
  slot.innerHTML = `${html}<div class="apps">${apps.join('')}</div>`;
  const messages = $('#messages');
  messages.scrollTop = messages.scrollHeight;
}

const events = new EventSource('/api/events');
events.addEventListener('message', (event) => {
  const data = JSON.parse(event.data);
  if (data.type === 'ready') document.body.dataset.ready = 'true';
  else if (data.type === 'message') place(data.id, data.channelId, data.html);
  else if (data.type === 'delete') {
    slots.get(data.id)?.remove();
    slots.delete(data.id);
  } else if (data.type === 'modal') openModal(data);
  else if (data.type === 'notice') notice(data.text);
});

// --- modals ----------------------------------------------------------------------------------------------------------

function openModal(modal) {
  const dialog = $('#modal');
  $('#modal-title').textContent = modal.title;
  const body = dialog.querySelector('.modal-body');
  body.replaceChildren();
  const inputs = [];
  const addInput = (component, labelText, descriptionText) => {
    const label = document.createElement('label');
    label.append(labelText ?? component.label ?? component.custom_id);
    if (descriptionText) {
      const description = document.createElement('span');
      description.className = 'description';
      description.textContent = descriptionText;
      label.append(description);
    }
    let input;
    if (component.type === 4) {
      input = document.createElement(component.style === 2 ? 'textarea' : 'input');
      input.value = component.value ?? '';
      input.placeholder = component.placeholder ?? '';
      input.required = component.required ?? true;
      if (component.max_length) input.maxLength = component.max_length;
    } else if (component.type === 3) {
      input = document.createElement('select');
      input.multiple = (component.max_values ?? 1) > 1;
      for (const o of component.options ?? []) input.append(option(o.value, o.label, o.default ?? false));
    } else return;
    input.name = component.custom_id;
    inputs.push(input);
    label.append(input);
    body.append(label);
  };
  const walk = (components) => {
    for (const component of components ?? []) {
      if (component.type === 18) addInput(component.component, component.label, component.description);
      else if (component.type === 1) walk(component.components);
      else if (component.type === 10) {
        const text = document.createElement('p');
        text.textContent = component.content;
        body.append(text);
      } else addInput(component);
    }
  };
  walk(modal.components);
  dialog.querySelector('.cancel').onclick = () => dialog.close();
  dialog.querySelector('form').onsubmit = (event) => {
    event.preventDefault();
    const fields = {};
    for (const input of inputs) fields[input.name] = input.tagName === 'SELECT' ? [...input.selectedOptions].map((o) => o.value) : input.value;
    dialog.close();
    void api('/api/modal', { customId: modal.customId, ...(modal.messageId ? { messageId: modal.messageId } : {}), fields, actor: actor() });
  };
  dialog.showModal();
}

// --- talking to the server -----------------------------------------------------------------------------------------

function notice(text) {
  const element = document.createElement('div');
  element.className = 'notice';
  element.textContent = text;
  $('#notices').append(element);
  setTimeout(() => element.remove(), 8000);
}

async function api(path, body) {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.ok) return true;
  const answer = await response.json().catch(() => ({ error: response.statusText }));
  notice(`${path}: ${answer.error}`);
  return false;
}
