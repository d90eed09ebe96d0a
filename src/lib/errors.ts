/** Base of every error garment-press throws on purpose; the subclass name becomes `name`. */
export class GarmentPressError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}
