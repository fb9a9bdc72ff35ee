// The floor without a framework: the same request, the same first cards' text, drawn with the DOM.
import { firstProducts, rootElement } from './products';

void firstProducts().then((products) => {
  const root = rootElement();
  for (const product of products) {
    const card = document.createElement('article');
    card.className = 'card';
    card.dataset.testid = 'product-card';
    const name = document.createElement('h2');
    name.textContent = product.name;
    const description = document.createElement('p');
    description.textContent = product.description || 'No description provided.';
    const price = document.createElement('p');
    price.textContent = `₹${product.price}`;
    card.append(name, description, price);
    root.append(card);
  }
});
