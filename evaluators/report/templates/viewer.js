(function () {
  var q = document.getElementById('q'), st = document.getElementById('status'), md = document.getElementById('mode');
  var ag = document.getElementById('agent');
  var count = document.getElementById('count'), eps = document.querySelectorAll('details.ep'), texts = [];
  for (var i = 0; i < eps.length; i++) texts.push(eps[i].textContent.toLowerCase());
  function apply() {
    var t = q.value.toLowerCase().trim(), s = st.value, m = md.value, a = ag ? ag.value : '', n = 0;
    for (var i = 0; i < eps.length; i++) {
      var e = eps[i], ok = (!s || e.dataset.status === s) && (!m || e.dataset.mode === m) &&
        (!a || e.dataset.agent === a) && (!t || texts[i].indexOf(t) >= 0);
      e.hidden = !ok; if (ok) n++;
    }
    count.textContent = n + ' of ' + eps.length + ' episodes on this page';
  }
  function setAll(open) { for (var i = 0; i < eps.length; i++) if (!eps[i].hidden) eps[i].open = open; }
  q.addEventListener('input', apply); st.addEventListener('change', apply); md.addEventListener('change', apply);
  if (ag) ag.addEventListener('change', apply);
  document.getElementById('expand').addEventListener('click', function () { setAll(true); });
  document.getElementById('collapse').addEventListener('click', function () { setAll(false); });
  function openHash() {
    var el = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (el && el.tagName === 'DETAILS') { el.hidden = false; el.open = true; el.scrollIntoView(); }
  }
  window.addEventListener('hashchange', openHash);
  apply(); openHash();
})();
