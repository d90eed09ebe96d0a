// A garment's picture that fails to load (its host unreachable, the file gone) becomes a placeholder
// naming the garment, as a garment without a picture shows, never the browser's broken-image box:
// pictures that failed before this script ran as well as those that fail later. Without JavaScript
// the stylesheet writes the same name over a broken picture (img.garment-image::after).
(() => {
  const replace = (img) => {
    if (!(img instanceof HTMLImageElement) || !img.classList.contains('garment-image') || !img.isConnected) return;
    const name = img.dataset.placeholder || img.alt;
    const box = document.createElement('span');
    box.className = `${img.className} image-placeholder`;
    box.classList.remove('garment-image');
    // A picture with no alternative text is decoration beside the garment's name: so is its placeholder.
    if (img.alt) {
      box.setAttribute('role', 'img');
      box.setAttribute('aria-label', img.alt);
    }
    const words = document.createElement('span');
    words.setAttribute('aria-hidden', 'true');
    words.textContent = name;
    box.append(words);
    img.replaceWith(box);
  };
  document.addEventListener('error', (event) => replace(event.target), true);
  // A picture that is complete with no width failed; one lazily loaded and not yet asked for has no source yet.
  for (const img of document.querySelectorAll('img.garment-image')) {
    if (img.complete && img.naturalWidth === 0 && img.currentSrc) replace(img);
  }
})();
