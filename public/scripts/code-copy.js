// A documentation page, made better where JavaScript runs: each code example's Copy button (hidden
// without JavaScript) copies it and says so in words a screen reader announces (a status region).
// Its words come from the page (data-* on the button), set in src/components/docs/CodeBlock.astro.
(() => {
  for (const block of document.querySelectorAll('figure[data-code-block]')) {
    const button = block.querySelector('button[data-copy]');
    const status = block.querySelector('[data-copy-status]');
    const code = block.querySelector('pre > code');
    if (!button || !status || !code) continue;
    let clear;
    button.addEventListener('click', async () => {
      let said = button.dataset.copied;
      try {
        await navigator.clipboard.writeText(code.textContent);
      } catch {
        // No clipboard here (a page not served over https, a refusal): select the code for the keyboard's copy.
        getSelection().selectAllChildren(code);
        said = button.dataset.selected;
      }
      status.textContent = said;
      // Emptied again, so that copying once more is announced once more.
      clearTimeout(clear);
      clear = setTimeout(() => (status.textContent = ''), 4000);
    });
    button.hidden = false;
  }
})();
