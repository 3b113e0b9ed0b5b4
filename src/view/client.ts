/**
 * The viewer's one script and the policy that allows only it. On a page that names an event stream
 * (`data-events` on <body>), it listens at /api/events and puts each update's fragments, rendered
 * and escaped by the server, in place of the elements with their ids; `#live` says whether it is
 * connected. No inline handler, no other script, nothing fetched from elsewhere may run.
 */
export const CLIENT_SCRIPT = `(function () {
  var url = document.body.getAttribute("data-events");
  var live = document.getElementById("live");
  if (!url || !window.EventSource) return;
  var updates = 0;
  function say(text, on) { if (live) { live.textContent = text; live.className = on ? "live on" : "live"; } }
  var source = new EventSource(url);
  source.onopen = function () { say("live", true); };
  source.onerror = function () { say("reconnecting…", false); };
  source.addEventListener("update", function (e) {
    var data = JSON.parse(e.data);
    var html = data.html || {};
    Object.keys(html).forEach(function (id) {
      var el = document.getElementById(id);
      if (el) el.innerHTML = html[id];
    });
    updates++;
    if (live) live.setAttribute("data-updates", String(updates));
  });
})();`;

const SCRIPT_HASH = new Bun.CryptoHasher("sha256").update(CLIENT_SCRIPT).digest("base64");

/** Only the script above; styles inline; connections only back to this server; nothing framed or embedded. */
export const PAGE_POLICY = `default-src 'none'; script-src 'sha256-${SCRIPT_HASH}'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;

/** A raw file of a run folder: shown as text, never run or rendered. */
export const FILE_POLICY = "default-src 'none'; sandbox; frame-ancestors 'none'";
